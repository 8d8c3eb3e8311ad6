package riskmodel

import "testing"

// An agent answering its own approvals through paths the shell rules did not list: guardian's
// state or config written through $XDG_STATE_HOME/$XDG_CONFIG_HOME or by inline interpreter
// code, and guardian serve's deciding routes requested by inline code (the ID and port held in
// variables, the address and the route given apart). Reads of the queue stay allowed.
func TestClassSelfApprovalByInterpreter(t *testing.T) {
	runClassCases(t, []classCase{
		// State and config through the XDG variables.
		{src: `echo '{"id":"g1","rule":"*"}' >> $XDG_STATE_HOME/guardian/grants.jsonl`, min: Critical, rule: "fs.write.agent-config", source: "XDG Base Directory spec: $XDG_STATE_HOME"},
		{src: `cp /tmp/permissive.toml "${XDG_CONFIG_HOME}/guardian/config.toml"`, min: Critical, rule: "fs.write.agent-config", source: "braced variable"},
		{src: `rm -f $XDG_STATE_HOME/guardian/breakers.json`, min: Critical, rule: "fs.write.agent-config", source: "deleting state"},
		// State and config written by inline code.
		{src: `python3 -c "import os; open(os.path.join(os.environ['HOME'], '.local', 'state', 'guardian', 'approvals.jsonl'), 'a').write('{}')"`, min: Critical, rule: "fs.write.agent-config", source: "os.path.join of HOME"},
		{src: `python3 -c "import os; open(os.environ.get('XDG_STATE_HOME', os.path.expanduser('~/.local/state')) + '/guardian/grants.jsonl', 'a').write('{}')"`, min: Critical, rule: "fs.write.agent-config", source: "XDG with a default"},
		{src: `node -e "require('fs').writeFileSync(process.env.XDG_CONFIG_HOME + '/guardian/config.toml', 'reviewer = \"none\"')"`, min: Critical, rule: "fs.write.agent-config", source: "process.env.XDG_CONFIG_HOME"},
		{src: `node -e "const p=require('path'),os=require('os');require('fs').appendFileSync(p.join(os.homedir(),'.local/state/guardian/grants.jsonl'),'{}')"`, min: Critical, rule: "fs.write.agent-config", source: "path.join of homedir"},
		{src: `ruby -e "File.write(File.join(Dir.home, '.config', 'guardian', 'config.toml'), 'x')"`, min: Critical, rule: "fs.write.agent-config", source: "ruby File.join"},
		// The approval API through inline code.
		{src: `python3 -c "import urllib.request as u; u.urlopen(u.Request('http://127.0.0.1:%d/v1/pending/%s/approve' % (port, rid), data=b'{}'))"`, min: Critical, rule: "guardian.approval-api", source: "%-formatted URL"},
		{src: `python3 -c "import requests; requests.post(f'http://localhost:{port}/v1/pending/{rid}/deny')"`, min: Critical, rule: "guardian.approval-api", source: "f-string URL"},
		{src: `python3 -c "import http.client; c = http.client.HTTPConnection('127.0.0.1', 7420); c.request('POST', '/v1/pending/' + rid + '/approve')"`, min: Critical, rule: "guardian.approval-api", source: "http.client with the route concatenated"},
		{src: "node -e 'fetch(`http://127.0.0.1:${port}/v1/breakers/reset`, {method: \"POST\"})'", min: Critical, rule: "guardian.approval-api", source: "template literal"},
		{src: `node -e "require('http').request({host:'localhost',port:7420,path:'/v1/grants/'+id,method:'DELETE'}).end()"`, min: Critical, rule: "guardian.approval-api", source: "http.request options object"},
		{src: `ruby -e "require 'net/http'; Net::HTTP.new('127.0.0.1', 7420).post('/v1/pending/' + ARGV[0] + '/approve', '')"`, min: Critical, rule: "guardian.approval-api", source: "Net::HTTP"},
		// Routine: reading the queue, another host's API of the same shape, other XDG paths.
		{src: `python3 -c "import requests; print(requests.get('http://127.0.0.1:7420/v1/pending').json())"`, max: Low, notRule: "guardian.approval-api", source: "routine: lists pending approvals"},
		{src: `python3 -c "import requests; requests.post('https://api.example.com/v1/pending/' + rid + '/approve')"`, notRule: "guardian.approval-api", source: "another host's API"},
		{src: `cat $XDG_STATE_HOME/guardian/audit.jsonl`, max: Low, source: "routine: reads guardian's audit log"},
		{src: `echo x > $XDG_CACHE_HOME/myapp/cache.txt`, notRule: "fs.write.agent-config", source: "another program's cache"},
	})
}
