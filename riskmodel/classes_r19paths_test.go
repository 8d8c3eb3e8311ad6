package riskmodel

import "testing"

// Android signing configurations kept beside the keystore under a name of their own
// (keystore/release.properties) hold the store and key passwords as keystore.properties does:
// another project's is denied, the workspace's own is asked about at high (cred.read, as for
// a .env of the project).
func TestClassSigningConfigDirs(t *testing.T) {
	runExecCases(t, []execCase{
		{`cat /Users/dmitri/AndroidStudioProjects/Rewards/keystore/release.properties`, Deny, "", ""},
		{`grep storePassword android/signing/upload.properties`, Ask, "cred.read", ""},
		// Neighbours: other properties files are project configuration.
		{`cat app/src/main/resources/application.properties`, Allow, "", ""},
		{`cat gradle/wrapper/gradle-wrapper.properties`, Allow, "", ""},
	})
}

// systemctl's read-only verbs beyond status and list-units (systemctl(1)): reads, routine;
// every changing verb stays with sys.service.
func TestClassSystemctlReads(t *testing.T) {
	runExecCases(t, []execCase{
		{`systemctl list-dependencies nginx.service`, Allow, "", ""},
		{`systemctl is-system-running`, Allow, "", ""},
		{`systemctl get-default`, Allow, "", ""},
		{`systemctl list-jobs`, Allow, "", ""},
		{`systemctl restart nginx`, Ask, "sys.service", ""},
		{`systemctl set-default rescue.target`, Ask, "", ""},
	})
}

// System stores of keys and passwords that need no sudo to be named: WireGuard's interface
// configs (PrivateKey), Debian's MySQL maintenance password, NetworkManager's connection
// secrets. Listing the directory names nothing secret.
func TestClassSystemServiceSecrets(t *testing.T) {
	runExecCases(t, []execCase{
		{`cat /etc/wireguard/wg0.conf`, Deny, "cred.read", ""},
		{`grep password /etc/mysql/debian.cnf`, Deny, "cred.read", ""},
		{`cat /etc/NetworkManager/system-connections/office.nmconnection`, Deny, "cred.read", ""},
		{`ls /etc/wireguard`, Allow, "", ""},
	})
}

// A read under sudo stays routine only while no option hands the tool something to run or
// load as root: iptables' --modprobe/-M names a program it executes.
func TestClassSudoReadRunOptions(t *testing.T) {
	runExecCases(t, []execCase{
		{`sudo iptables -L -n -v`, Allow, "", ""},
		{`sudo iptables -L --modprobe=/tmp/x`, Ask, "priv.sudo", ""},
		{`sudo iptables -M /tmp/x -L`, Ask, "priv.sudo", ""},
		{`sudo dmesg --config=/tmp/x`, Ask, "priv.sudo", ""},
		{`sudo ss -tlnp`, Allow, "", ""},
	})
}
