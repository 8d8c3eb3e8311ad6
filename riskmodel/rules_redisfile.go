package riskmodel

import (
	"path"
	"strings"
)

// redisFileRules judge redis-cli CONFIG SET dir / dbfilename: the server then writes its
// dump, whose contents the client chose with SET, to that file as the server's user — the
// known way to plant a crontab, an authorized_keys or a web shell through Redis (Redis
// security docs: "protected mode"; MITRE ATT&CK T1053.003). docs/policy.md denies cron
// and authorized_keys persistence.
func redisFileRules() []*Rule {
	return []*Rule{{
		ID: "db.redis-file-write", Level: High, Category: CatPersistence,
		CertainWhen: "the directory or file is a crontab, an SSH directory, a system or web-served directory",
		Message:     "Points the Redis server's dump file at a directory or file of its choosing",
		exec: func(c *execCtx, s *Segment) (string, bool) {
			switch s.Name() {
			case "redis-cli", "valkey-cli", "keydb-cli":
			default:
				return "", false
			}
			for i := 1; i+3 < len(s.Args); i++ {
				if !strings.EqualFold(s.Args[i], "config") || !strings.EqualFold(s.Args[i+1], "set") {
					continue
				}
				k := strings.ToLower(s.Args[i+2])
				if k != "dir" && k != "dbfilename" {
					continue
				}
				v := s.Args[i+3]
				if redisPlantTarget(k, v) {
					c.certainty = certaintySure
				}
				return "Sets the Redis server's " + k + " to " + v + ": its next save writes a file there", true
			}
			return "", false
		},
	}}
}

// redisPlantTarget reports a dump location that plants code or a login: cron spools, SSH
// directories and key files, system configuration and web roots.
func redisPlantTarget(k, v string) bool {
	lv := strings.ToLower(v)
	if k == "dbfilename" {
		b := path.Base(lv)
		return b == "authorized_keys" || b == "root" || strings.HasSuffix(b, ".php") || strings.HasSuffix(b, ".jsp") || strings.HasPrefix(b, ".bash") || b == ".profile"
	}
	if strings.Contains(lv, "/.ssh") {
		return true
	}
	for _, p := range []string{"/var/spool/cron", "/etc", "/var/www", "/usr/share/nginx", "/root"} {
		if strings.HasPrefix(lv, p) {
			return true
		}
	}
	return false
}
