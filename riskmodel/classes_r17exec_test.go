package riskmodel

import "testing"

// Secrets selected out of infrastructure state (r17exec_iacstate.go). Sources: Terraform CLI
// reference (state pull, show -json, output -json/-raw), OpenTofu's, Pulumi's stack export
// --show-secrets and stack output --show-secrets, jq manual.
func TestClassR17ExecIaCStateSecrets(t *testing.T) {
	runDevCases(t, []devCase{
		{`terraform state pull | jq -r '.resources[] | select(.type=="aws_db_instance") | .instances[].attributes.password'`, Deny, "cred.iac-state-secrets", "state pull, password attribute"},
		{`tofu state pull | jq '.. | .private_key? // empty'`, Deny, "cred.iac-state-secrets", "OpenTofu, private key"},
		{`terraform show -json | jq -r '.values.root_module.resources[].values.access_key'`, Deny, "cred.iac-state-secrets", "show -json, access key"},
		{`terraform state pull | grep -i secret`, Deny, "cred.iac-state-secrets", "grep for secrets"},
		{`terraform show -json | python3 -c 'import json,sys; d=json.load(sys.stdin); print([r["values"]["token"] for r in d["values"]["root_module"]["resources"]])'`, Deny, "cred.iac-state-secrets", "python selects a token"},
		{`pulumi stack export --show-secrets --stack prod`, Deny, "cred.iac-state-secrets", "pulumi decrypts every secret"},
		{`pulumi stack output --show-secrets dbPassword`, Deny, "cred.iac-state-secrets", "pulumi output decrypted"},
		{`terraform output -json | jq -r '.db_password.value'`, Ask, "cred.iac-state-secrets", "one sensitive output: asked"},
		{`terraform output -raw admin_token`, Ask, "cred.iac-state-secrets", "one named secret output: asked"},
		{`terraform state pull > /tmp/state.json && jq '.resources[].instances[].attributes.client_secret' /tmp/state.json`, Deny, "cred.iac-state-secrets", "state saved then read"},
		{`terraform state list`, Allow, "", "names only"},
		{`terraform output -json | jq -r '.vpc_id.value'`, Allow, "", "a plain output"},
		{`terraform output -raw bucket_name`, Allow, "", "a plain output"},
		{`terraform show -json | jq '.values.root_module.resources | length'`, Allow, "", "a count"},
		{`pulumi stack export --file stack.json`, Allow, "", "secrets stay encrypted"},
	})
}

// Disks filled on purpose (r17exec_fill.go): GNU coreutils head -c/yes, util-linux fallocate,
// dd's bs×count, truncate (sparse: not a fill).
func TestClassR17ExecDiskFill(t *testing.T) {
	runDevCases(t, []devCase{
		{`yes x | head -c 200G > data/filler.txt`, Deny, "sys.disk-fill", "yes piped to head"},
		{`cat /dev/zero | head -c 64G > pad.bin`, Deny, "sys.disk-fill", "zeros piped to head"},
		{`head -c 100G /dev/urandom > blob.bin`, Deny, "sys.disk-fill", "random bytes"},
		{`fallocate -l 500G big.img`, Deny, "sys.disk-fill", "fallocate reserves blocks"},
		{`fallocate --length 1T /var/tmp/fill`, Deny, "sys.disk-fill", "a terabyte"},
		{`dd if=/dev/zero of=zeros.bin bs=1G count=500`, Deny, "sys.disk-fill", "dd 500 GiB"},
		{`dd if=/dev/urandom of=r.bin bs=1M count=80000 status=progress`, Deny, "sys.disk-fill", "dd ~78 GiB"},
		{`head -c 10M /dev/urandom > fixture.bin`, Allow, "", "a test fixture"},
		{`fallocate -l 1G swapfile.test`, Ask, "", "small: as today"},
		{`dd if=/dev/zero of=disk.img bs=1M count=512`, Allow, "", "a small image in the workspace"},
	})
}

// Code-execution servers listening on every interface with no authentication
// (r17exec_openserver.go). Sources: Jupyter Server config (ServerApp.token, .password, --ip),
// classic notebook (NotebookApp.token), code-server --auth/--bind-addr, ttyd -i/-c, gotty -w/-c.
func TestClassR17ExecOpenCodeServer(t *testing.T) {
	runDevCases(t, []devCase{
		{`jupyter lab --ip=0.0.0.0 --port 8888 --ServerApp.token= --ServerApp.password= --no-browser`, Deny, "net.open-code-server", "Jupyter, no token, all interfaces"},
		{`jupyter notebook --ip 0.0.0.0 --NotebookApp.token='' --allow-root`, Deny, "net.open-code-server", "classic notebook"},
		{`jupyter-lab --ServerApp.ip='*' --IdentityProvider.token=''`, Deny, "net.open-code-server", "Jupyter Server 2 identity provider"},
		{`code-server --auth none --bind-addr 0.0.0.0:8080 .`, Deny, "net.open-code-server", "code-server without auth"},
		{`ttyd -p 7681 -W bash`, Deny, "", "ttyd writable, all interfaces: net.tunnel already"},
		{`gotty -w --address 0.0.0.0 bash`, Deny, "", "gotty writable: net.tunnel already"},
		{`openvscode-server --host 0.0.0.0 --without-connection-token`, Deny, "net.open-code-server", "OpenVSCode Server"},
		{`jupyter lab --ip=127.0.0.1 --ServerApp.token=`, Allow, "", "loopback: as today"},
		{`jupyter lab --no-browser`, Allow, "", "default token, loopback"},
		{`jupyter lab --ip=0.0.0.0 --ServerApp.token=$(openssl rand -hex 16)`, Ask, "", "token set: as today"},
		{`code-server --bind-addr 0.0.0.0:8080`, Deny, "", "password auth, all interfaces: net.tunnel already"},
	})
}
