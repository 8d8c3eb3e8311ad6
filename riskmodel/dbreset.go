package riskmodel

import (
	"strings"
)

// A framework's reset task (rails db:reset, mix ecto.reset, php artisan migrate:fresh,
// prisma migrate reset, manage.py flush, …) acts on the database the project is configured
// for in the environment it runs in, which is development unless something says otherwise.
// Discarding that local data is what these tasks are for and the seeds and migrations bring it
// back, so docs/policy.md's routine local work applies: it is judged like a wipe of a database
// on this machine (db.local-reset), not like dropping production tables. It stays a deletion of
// unknown or production data, denied, when the request names another environment (RAILS_ENV=
// production, MIX_ENV=prod, --env=staging), points the database elsewhere (DATABASE_URL to
// another host) or the task is one without an environment notion; and it is asked when the
// request switches the framework's own production guard off (artisan --force,
// DISABLE_DATABASE_ENVIRONMENT_CHECK=1), since the environment is then whatever the
// configuration says.

// devResetTools are the migration tools whose reset tasks act on the development database by
// default: an environment variable or option chooses another.
var devResetTools = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"rails": true, "rake": true, "mix": true, "artisan": true, "prisma": true, "manage.py": true,
		"django-admin": true, "python": true, "python3": true, "sequelize": true, "sequelize-cli": true, "knex": true, "supabase": true}
}}

// devEnvValues are the environment names that mean this machine's development or test setup.
var devEnvValues = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"development": true, "dev": true, "test": true, "testing": true, "local": true}
}}

// envKeys are the variables and options that choose a framework's environment.
var envKeys = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"RAILS_ENV": true, "RACK_ENV": true, "MIX_ENV": true, "APP_ENV": true, "NODE_ENV": true, "FLASK_ENV": true,
		"DJANGO_ENV": true, "ENV": true, "ENVIRONMENT": true, "STAGE": true, "--env": true, "-e": true, "--environment": true}
}}

// devReset says how a destructive migration task of a dev-default tool is judged: local
// (the development database), guardOff (the framework's production guard switched off, a
// reason in why), or neither (another environment or database: kept as destructive).
func devReset(c *execCtx, s *Segment, m dbMigration) (local bool, guardOff string) {
	if !devResetTools.get()[m.tool] || m.remote {
		return false, ""
	}
	kvs := append([]string(nil), requestAssigns(c, s)...)
	args := s.Args[1:]
	for i, a := range args {
		switch {
		case strings.Contains(a, "="):
			kvs = append(kvs, a) // rails db:reset RAILS_ENV=test, --env=production
		case envKeys.get()[a] || a == "--database-url" || a == "--url" || a == "--db-url":
			if i+1 < len(args) {
				kvs = append(kvs, a+"="+args[i+1])
			}
		case a == "--force" && m.tool == "artisan":
			guardOff = "--force, which skips Laravel's production confirmation"
		}
	}
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		v = strings.Trim(v, `"'`)
		ku := strings.ToUpper(strings.TrimLeft(k, "-"))
		switch {
		case envKeys.get()[k] || envKeys.get()[ku]:
			if !devEnvValues.get()[strings.ToLower(v)] {
				return false, ""
			}
		case strings.Contains(ku, "SETTINGS") || strings.Contains(ku, "CONFIG"):
			// DJANGO_SETTINGS_MODULE=app.settings.staging, --settings=…: a settings module
			// that does not say development or test may be any environment.
			if lv := strings.ToLower(v); !strings.Contains(lv, "dev") && !strings.Contains(lv, "test") && !strings.Contains(lv, "local") {
				return false, ""
			}
		case ku == "DISABLE_DATABASE_ENVIRONMENT_CHECK":
			guardOff = "DISABLE_DATABASE_ENVIRONMENT_CHECK, which switches Rails' production guard off"
		case strings.Contains(ku, "DATABASE") || strings.Contains(ku, "DB") || strings.Contains(ku, "DSN") || strings.HasSuffix(ku, "URL") ||
			strings.HasSuffix(ku, "HOST") || strings.HasPrefix(ku, "PG") || strings.HasPrefix(ku, "MYSQL"):
			if strings.Contains(v, "$") || !dbLocal(c, []string{v}) && !loopbackURL(v) {
				return false, "" // a database elsewhere, or one named by a variable guardian cannot see
			}
		}
	}
	return true, guardOff
}
