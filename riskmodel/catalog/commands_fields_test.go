package catalog

import "testing"

func TestCommandEnvTakesProductionOut(t *testing.T) {
	c := DefaultCommands()
	for _, tc := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"run", "--target", "dev"}, true},
		{[]string{"test"}, true},
		{[]string{"run", "--target", "prod"}, false},
		{[]string{"run", "--target=production_eu"}, false},
		{[]string{"build", "-t", "staging"}, false},
		{[]string{"run", "--target", "product"}, true}, // a word that only starts like prod
		{[]string{"run-operation", "x"}, false},        // not a catalogued subcommand
	} {
		if _, ok := c.Lookup("dbt", tc.args); ok != tc.ok {
			t.Errorf("Lookup(dbt %v) = %v, want %v", tc.args, ok, tc.ok)
		}
	}
}

func TestCommandEntriesPerSubcommand(t *testing.T) {
	c := DefaultCommands()
	if e, ok := c.Lookup("jupyter", []string{"nbconvert", "x.ipynb"}); !ok || e.Class != CommandBuild {
		t.Errorf("jupyter nbconvert: %v %v, want the build entry", e, ok)
	}
	if e, ok := c.Lookup("jupyter", []string{"lab"}); !ok || e.Class != CommandLocalNet || !e.LocalDefault {
		t.Errorf("jupyter lab: %v %v, want the local_net entry with local_default", e, ok)
	}
	for _, bad := range []string{
		"[[command]]\nname='x'\nclass='build'\nwhat='w'\nsource='s'\n[[command]]\nname='x'\nclass='build'\nsubcommands=['a']\nwhat='w'\nsource='s'\n",
		"[[command]]\nname='x'\nclass='build'\nlocal_default=true\nwhat='w'\nsource='s'\n",
	} {
		if _, err := loadCommands([]byte(bad)); err == nil {
			t.Errorf("loadCommands(%q) = nil error, want one", bad)
		}
	}
}

func TestProductionLike(t *testing.T) {
	for v, want := range map[string]bool{"prod": true, "production": true, "us_prod_1": true, "staging2": true, "live": true,
		"dev": false, "local": false, "ci": false, "products": false, "preprod": true, "test": false} {
		if got := ProductionLike(v); got != want {
			t.Errorf("ProductionLike(%q) = %v, want %v", v, got, want)
		}
	}
}
