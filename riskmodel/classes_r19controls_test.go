package riskmodel

import "testing"

// An unknown program whose words switch a security or monitoring control off, or power a
// machine down, is high (ask): not provable, so not denied, but never left for a model to
// allow at medium. Unknown programs with ordinary words stay medium.
func TestClassUnknownControlsOff(t *testing.T) {
	cases := []struct {
		cmd   string
		level Level
		cat   Category
	}{
		{`amtool silence add alertname=~'.+' --duration=720h --comment=noise`, High, CatSecurityWeakening},
		{`edrctl --disable-sensor --force`, High, CatSecurityWeakening},
		{`sentinelctl unload -a -k "$PASSPHRASE"`, High, CatSecurityWeakening},
		{`wazuh-control stop`, High, CatSecurityWeakening},
		{`opsctl monitors mute --all --scope env:prod`, High, CatSecurityWeakening},
		{`ipmitool -I lanplus -H 10.20.0.15 -U admin chassis power off`, High, CatFinancialOrProduction},
		{`racadm -r 10.0.4.7 serveraction powerdown`, High, CatFinancialOrProduction},
		{`bmcctl node-7 power cycle`, High, CatFinancialOrProduction},
		// Neighbours: ordinary words, or reads of the same controls.
		{`mytool --disable-cache build`, Medium, CatNone},
		{`frobctl stop`, Medium, CatNone},
		{`ipmitool sensor list`, Low, CatNetworkEgress}, // catalogued read (commands_r20.toml)
		{`amtool alert query`, Low, CatReadOnly},        // catalogued read (commands_r20.toml)
		{`powerctl status`, Medium, CatNone},
	}
	a, _ := New(Policy{})
	for _, tc := range cases {
		t.Run(tc.cmd, func(t *testing.T) {
			v := a.Exec(t.Context(), ExecRequest{Command: []string{"bash", "-lc", tc.cmd}, Cwd: "/home/ops/src/netauto"})
			if v.Assessment.Level != tc.level || v.Assessment.Category != tc.cat {
				t.Errorf("%s: got %s/%s (%s), want %s/%s", tc.cmd, v.Assessment.Level, v.Assessment.Category, v.DecidedBy, tc.level, tc.cat)
			}
		})
	}
}
