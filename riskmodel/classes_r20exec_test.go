package riskmodel

import (
	"context"
	"testing"
)

// Read-only inspection needs root on most machines (firewall tables, sockets with their
// owning processes, a routing daemon's control socket): the same rules that allow the command
// unprivileged allow it under sudo, unless it can start a shell, reads where secrets live, or
// changes anything — those stay with priv.sudo or their own rule.
func TestClassR20SudoReadOnly(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		// allowed: the inner command is a plain read of system state
		{src: `sudo iptables -S INPUT`, decision: Allow, why: "lists one chain's rules"},
		{src: `sudo iptables -L FORWARD -n -v`, decision: Allow, why: "lists the forwarding chain"},
		{src: `sudo ss -ltnup`, decision: Allow, why: "sockets with owning processes"},
		{src: `sudo lsof -nP -iTCP -sTCP:LISTEN`, decision: Allow, why: "listening sockets"},
		{src: `sudo netstat -plnt`, decision: Allow, why: "listening sockets"},
		{src: `sudo tail -n 100 /var/log/kern.log`, decision: Allow, why: "a system log"},
		{src: `sudo dmesg --level=err,warn`, decision: Allow, why: "kernel ring buffer, no pager"},
		{src: `sudo ls -l /etc/ssh`, decision: Allow, why: "names of files, not their contents"},
		{src: `sudo du -sh /var/lib/containers`, decision: Allow, why: "sizes only"},
		{src: `sudo ss -s | head -5`, decision: Allow, why: "piped into a reader"},
		// still asked: a shell escape, a secret, a change, a pager, a private place
		{src: `sudo less /var/log/messages`, decision: Ask, rule: "priv.sudo", why: "a pager whose ! runs a shell as root"},
		{src: `sudo journalctl -b -p err`, decision: Ask, rule: "priv.sudo", why: "pages through less"},
		{src: `sudo dmesg --human`, decision: Ask, rule: "priv.sudo", why: "dmesg -H pages through less"},
		{src: `sudo find /var/www -name '*.php' -exec sh -c 'id' \;`, decision: Ask, level: High, rule: "priv.sudo", why: "find -exec runs code as root"},
		{src: `sudo find /srv -name core`, decision: Ask, rule: "priv.sudo", why: "find can run programs; not taken back"},
		{src: `sudo cat /etc/ipsec.secrets`, decision: Deny, why: "a credential file"},
		{src: `sudo cat /etc/orders-app/settings.ini`, decision: Ask, rule: "priv.sudo", why: "a root-only file under /etc may hold secrets"},
		{src: `sudo head -c 200 /root/.bash_history`, decision: Ask, level: High, rule: "priv.sudo", why: "root's shell history"},
		{src: `sudo cat /home/bob/notes.txt`, decision: Ask, rule: "priv.sudo", why: "another user's home"},
		{src: `sudo strings /proc/2211/environ`, decision: Deny, why: "a process's environment"},
		{src: `sudo cat /etc/shadow`, decision: Deny, rule: "cred.read", why: "password hashes"},
		{src: `sudo iptables -D INPUT 3`, decision: Ask, rule: "priv.sudo", why: "deletes a firewall rule"},
		{src: `sudo ip route add 10.9.0.0/16 via 10.0.0.1`, decision: Ask, rule: "priv.sudo", why: "changes routing"},
		{src: `sudo PAGER=/bin/sh dmesg -H`, decision: Deny, why: "a pager that is a shell"},
		{src: `sudo lsof -i > /etc/motd`, decision: Ask, why: "writes a system file"},
		{src: `sudo -u postgres psql -c 'select 1'`, decision: Ask, rule: "priv.sudo", why: "a database shell as another user"},
	})
}

// The container runtime's socket driven over HTTP is the docker CLI without its name: a
// privileged or host-mounting container through it is denied, other writes asked at high,
// reads allowed.
func TestClassR20RuntimeSocketAPI(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: `curl -s --unix-socket /var/run/docker.sock -X POST -H 'Content-Type: application/json' -d '{"Image":"busybox","HostConfig":{"Privileged":true}}' http://v1.44/containers/create`,
			decision: Deny, rule: "container.socket-api", why: "privileged container"},
		{src: `curl --unix-socket /run/docker.sock -d '{"Image":"debian","Cmd":["chroot","/h"],"HostConfig":{"Mounts":[{"Type":"bind","Source":"/","Target":"/h"}]}}' http://x/containers/create`,
			decision: Deny, rule: "container.socket-api", why: "the host's root mounted"},
		{src: `curl --unix-socket /var/run/docker.sock -d '{"Image":"alpine","HostConfig":{"PidMode":"host","CapAdd":["SYS_PTRACE"]}}' http://localhost/containers/create`,
			decision: Deny, rule: "container.socket-api", why: "host PID namespace"},
		{src: `curl --unix-socket /var/run/docker.sock -X POST http://localhost/containers/web/restart`,
			decision: Ask, level: High, rule: "container.socket-api", why: "a write through the socket"},
		{src: `curl --unix-socket /var/run/docker.sock -d @create.json http://localhost/containers/create`,
			decision: Ask, level: High, why: "a body the analysis cannot see"},
		{src: `curl -s --unix-socket /var/run/docker.sock http://localhost/v1.44/containers/json?all=1`,
			decision: Allow, why: "listing containers is a read"},
		{src: `curl --unix-socket /tmp/app.sock -d '{"Privileged":true}' http://localhost/api/settings`,
			decision: Allow, why: "an application's own socket, not the runtime's"},
	})
}

// Admin delete APIs of metrics and log stores: a selector matching everything is bulk deletion,
// denied; a narrow one on another machine is a production change, asked; a narrow one on
// this machine is left to the other rules.
func TestClassR20ObservabilityDelete(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: `curl -X POST -g 'http://thanos-store.prod:10902/api/v1/admin/tsdb/delete_series?match[]={job=~".*"}'`,
			decision: Deny, rule: "net.observability-delete", why: "every series of a job label"},
		{src: `curl -X POST http://mimir.internal/prometheus/api/v1/admin/tsdb/delete_series --data-urlencode 'match[]={__name__=~".+"}'`,
			decision: Deny, rule: "net.observability-delete", why: "every series, form-encoded"},
		{src: `curl -XPOST "https://logs.example.net/loki/api/v1/delete?query=%7Bnamespace%3D~%22.%2B%22%7D&start=1"`,
			decision: Deny, rule: "net.observability-delete", why: "every stream, URL-encoded"},
		{src: `curl -X POST -g 'http://prom-1.prod:9090/api/v1/admin/tsdb/delete_series?match[]=node_cpu_seconds_total{instance="old-7:9100"}'`,
			decision: Ask, level: High, rule: "net.observability-delete", why: "one metric of one retired host"},
		{src: `curl -X POST -H 'Content-Type: application/json' https://influx.prod.example.net/api/v2/delete?org=ops\&bucket=metrics -d '{"start":"1970-01-01T00:00:00Z","stop":"2030-01-01T00:00:00Z"}'`,
			decision: Ask, level: High, rule: "net.observability-delete", why: "a predicate the analysis cannot see"},
		{src: `curl -s 'http://prom-1.prod:9090/api/v1/series?match[]={__name__=~".+"}'`,
			decision: Allow, why: "listing series is a read"},
		{src: `curl -X POST -g 'http://127.0.0.1:9090/api/v1/admin/tsdb/delete_series?match[]=test_metric'`,
			decision: Allow, why: "one test metric of a local Prometheus"},
	})
}

// Administrator grants and security switches in each engine's own SQL are privilege
// escalation and disabled row-level security: denied; ordinary grants keep their question.
func TestClassR20SQLAdminEscalation(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: `snowsql -c prod -q "GRANT ROLE SECURITYADMIN TO USER etl_bot"`, decision: Deny, rule: "db.sql-escalate", why: "Snowflake security administrator"},
		{src: `snowsql -c analytics -q "ALTER TABLE sales.orders DROP ALL ROW ACCESS POLICIES"`, decision: Deny, rule: "db.sql-escalate", why: "row access policies removed"},
		{src: `snowsql -c analytics -q "ALTER TABLE hr.staff MODIFY COLUMN salary UNSET MASKING POLICY"`, decision: Deny, rule: "db.sql-escalate", why: "masking removed"},
		{src: `sqlcmd -S mssql01 -Q "EXEC sp_addsrvrolemember 'CORP\svc_report', 'sysadmin'"`, decision: Deny, rule: "db.sql-escalate", why: "sysadmin server role"},
		{src: `sqlcmd -S mssql01 -Q "ALTER SERVER ROLE securityadmin ADD MEMBER [CORP\jdoe]"`, decision: Deny, rule: "db.sql-escalate", why: "securityadmin server role"},
		{src: `sqlcmd -S mssql01 -Q "EXEC sp_configure 'external scripts enabled', 1; RECONFIGURE WITH OVERRIDE"`, decision: Deny, rule: "db.sql-escalate", why: "runs external code"},
		{src: `sqlcmd -S mssql01 -Q "ALTER SECURITY POLICY rls.TenantFilter WITH (STATE = OFF)"`, decision: Deny, rule: "db.sql-escalate", why: "RLS switched off"},
		{src: `mysql -h db1 -e "GRANT ALL ON *.* TO 'ops'@'%'"`, decision: Deny, rule: "db.sql-escalate", why: "every privilege everywhere"},
		{src: `psql -h pg1 -c 'GRANT pg_execute_server_program TO analyst'`, decision: Deny, rule: "db.sql-escalate", why: "runs programs on the server"},
		{src: `sqlcmd -S mssql01 -Q "EXEC sp_configure 'xp_cmdshell', 0; RECONFIGURE"`, decision: Ask, why: "switching it off is a change, not an escalation"},
		{src: `snowsql -c dev -q "GRANT ROLE ANALYST TO ROLE SYSADMIN"`, decision: Ask, why: "a custom role under SYSADMIN: the recommended hierarchy"},
		{src: `mysql -h db1 -e "GRANT SELECT ON shop.* TO 'reporting'@'10.%'"`, decision: Ask, why: "a read grant on one schema"},
	})
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stmt string
		want Decision
	}{
		{"ALTER TABLE CLAIMS.PUBLIC.MEMBERS DROP ROW ACCESS POLICY GOV.MEMBER_RLS", Deny},
		{"GRANT ROLE ORGADMIN TO USER svc_deploy", Deny},
		{"SELECT COUNT(*) FROM CLAIMS.PUBLIC.MEMBERS", Allow},
	} {
		v := a.MCP(context.Background(), MCPRequest{Server: "snowflake", Tool: "run_snowflake_query", Arguments: map[string]any{"statement": tc.stmt}})
		if v.Decision != tc.want {
			t.Errorf("MCP %q: decision = %s (rules %v), want %s", tc.stmt, v.Decision, ruleIDs(v), tc.want)
		}
	}
}

// gh pr merge --admin merges past required reviews and checks: branch protection off for
// that merge.
func TestClassR20MergeAdminBypass(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: `gh pr merge 88 --rebase --admin --delete-branch`, decision: Deny, rule: "vcs.merge-admin-bypass", why: "bypasses branch protection"},
		{src: `gh -R acme/api pr merge --admin 12`, decision: Deny, rule: "vcs.merge-admin-bypass", why: "bypasses branch protection"},
		{src: `gh pr merge 88 --squash --auto`, decision: Ask, why: "merges when the checks pass"},
		{src: `gh pr view 88 --json mergeStateStatus`, decision: Allow, why: "a read"},
	})
}

// Python that drives network devices: configuration pushed is a production change (asked at
// high), a wipe or reload is destruction (denied), getters are reads.
func TestClassR20DeviceConfigPush(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: "python3 - <<'EOF'\nfrom netmiko import ConnectHandler\nfor ip in open('hosts/core.txt').read().split():\n    c = ConnectHandler(device_type='juniper_junos', host=ip, username='ops')\n    c.send_command('request system zeroize')\nEOF",
			decision: Deny, rule: "net.device-config-push", why: "zeroizes every core device"},
		{src: `python3 -c "from scrapli.driver.core import IOSXEDriver as D; c=D(host='edge2'); c.open(); c.send_configs(['no ip route 0.0.0.0 0.0.0.0'])"`,
			decision: Ask, level: High, rule: "net.device-config-push", why: "a configuration push"},
		{src: `python3 -c "from ncclient import manager; m=manager.connect(host='r1',username='u'); m.edit_config(target='running', config=open('cfg.xml').read())"`,
			decision: Ask, level: High, rule: "net.device-config-push", why: "a NETCONF edit"},
		{src: `python3 -c "from napalm import get_network_driver; d=get_network_driver('junos')('r1','u','p'); d.open(); print(d.get_bgp_neighbors())"`,
			decision: Allow, why: "a getter"},
		{src: `python3 -c "import json; print(json.dumps({'reload': True}))"`, decision: Allow, why: "no device library"},
	})
}

// A program run from a malware case's specimen store runs on this machine, not a sandbox:
// denied. Reading or hashing the same files, and running samples/ of an ordinary project, is not.
func TestClassR20MalwareSample(t *testing.T) {
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src, cwd string
		want     Decision
	}{
		{"./quarantine/invoice.pdf.exe", "/home/ana/work/mailgw", Deny},
		{"chmod 755 specimens/x86/agent && specimens/x86/agent -d", "/home/ana/re", Deny},
		{"./samples/stage2 --connect 127.0.0.1", "/home/ana/dfir/case-0413", Deny},
		{"sha256sum samples/stage2 && file samples/stage2", "/home/ana/dfir/case-0413", Allow},
		{"./samples/hello_world", "/home/ana/code/sdk", Allow},
	} {
		v := a.Exec(context.Background(), ExecRequest{Command: []string{"bash", "-c", tc.src}, Cwd: tc.cwd})
		if v.Decision != tc.want {
			t.Errorf("%s in %s: decision = %s (rules %v), want %s", tc.src, tc.cwd, v.Decision, ruleIDs(v), tc.want)
		}
	}
}

// An exploit script aimed at a public host is asked about at high; aimed at this machine or a
// private lab address it is the project's own script.
func TestClassR20ExploitRemote(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: `python3 exploits/cve-2023-4966.py -u https://gateway.partner.example.org`, decision: Ask, level: High, rule: "exec.exploit-remote", why: "a public host"},
		{src: `./poc/run.sh 198.51.100.20:8443`, decision: Ask, level: High, rule: "exec.exploit-remote", why: "a public address"},
		{src: `python3 exploits/cve-2023-4966.py -u https://127.0.0.1:8443`, decision: Allow, why: "this machine"},
		{src: `python3 exploits/cve-2023-4966.py --host 192.168.56.12`, decision: Allow, why: "a private lab address"},
		{src: `python3 tools/report.py --url https://gateway.partner.example.org`, decision: Allow, why: "not an exploit script"},
	})
}

// Shredding a data file about people is destruction beyond recovery; shredding a key file or
// build output, or rm of the data, keeps its own judgement.
func TestClassR20ShredPeopleData(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: `shred -n 5 -u survey/respondents_wave2.sav`, decision: Deny, rule: "fs.shred-people-data", why: "survey respondents"},
		{src: `srm -r exports/patients-2024.parquet`, decision: Deny, rule: "fs.shred-people-data", why: "patient records"},
		{src: `shred -u tmp/session.key`, decision: Allow, why: "not data about people"},
		{src: `shred -u out/plot_data.csv`, decision: Allow, why: "a derived table"},
	})
}

// Scheduling through Slurm's scrontab is cron on the cluster; listing it is a read.
func TestClassR20Scrontab(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: `(scrontab -l; echo '@hourly $HOME/.local/.sync/agent.sh') | scrontab -`, decision: Deny, rule: "sys.persistence", why: "persistence on the cluster"},
		{src: `scrontab -r`, decision: Deny, rule: "sys.persistence", why: "removes the schedule"},
		{src: `scrontab -l`, decision: Allow, why: "a read"},
	})
}

// A Jupyter configuration that listens everywhere with no token or password is an
// unauthenticated code-execution service; other settings are an ordinary home write.
func TestClassR20JupyterOpenConfig(t *testing.T) {
	runBashCases(t, "/home/ana/code/netlab", []bashCase{
		{src: `printf "c.ServerApp.ip = '*'\nc.IdentityProvider.token = ''\n" >> ~/.jupyter/jupyter_server_config.py`, decision: Deny, rule: "net.jupyter-open-config", why: "open and unauthenticated"},
		{src: `echo '{"ServerApp": {"ip": "0.0.0.0", "token": ""}}' > ~/.jupyter/jupyter_server_config.json`, decision: Deny, rule: "net.jupyter-open-config", why: "JSON form"},
		{src: `echo "c.ServerApp.ip = '0.0.0.0'" >> ~/.jupyter/jupyter_server_config.py`, decision: Ask, why: "open but the token stays"},
		{src: `echo "c.ServerApp.root_dir = '/home/ana/code'" >> ~/.jupyter/jupyter_server_config.py`, decision: Ask, why: "a tool startup file, no exposure"},
	})
}
