package riskmodel

import (
	"context"
	"slices"
	"testing"
)

// Breadth from the tldr pages, r…z (catalog/commands_tldr_4.toml): the everyday uses of
// brokers' diagnostics, binary inspection, RCS and Subversion reads, TeX, Graphviz's other
// engines, archives, WebAssembly tools, code generators, Slurm queries, macOS developer tools
// and media conversions are known and routine (docs/policy.md: "the catalogue of known tools
// should be broad enough that unknown is rare in everyday work"). The same tools' other uses
// — changing a broker, a VM or the kernel, publishing, writing outside the workspace, reading
// a credential, talking to another host — stay asked or denied.

// tldr4Routine are routine uses written for this slice from each tool's tldr page (w-tldr4).
// Each must be allowed and known.
var tldr4Routine = []struct{ src, tool string }{
	{`rabbitmq-diagnostics listeners`, "rabbitmq-diagnostics"},
	{`rabbitmq-diagnostics check_running`, "rabbitmq-diagnostics"},
	{`rabbitmqctl list_queues name messages`, "rabbitmqctl"},
	{`rabbitmqctl cluster_status`, "rabbitmqctl"},
	{`rabbitmq-plugins list`, "rabbitmq-plugins"},
	{`rabbitmq-streams stream_status events`, "rabbitmq-streams"},
	{`redis-benchmark -h 127.0.0.1 -p 6379 -q -n 10000`, "redis-benchmark"},
	{`readelf --symbols build/libfoo.so`, "readelf"},
	{`readpe --imports dist/app.exe`, "readpe"},
	{`rabin2 -I target/release/app`, "rabin2"},
	{`strip --strip-debug build/main.o`, "strip"},
	{`strip build/app -o dist/app`, "strip"},
	{`rcsdiff -u notes.txt`, "rcsdiff"},
	{`rlog -h config.h`, "rlog"},
	{`svn status`, "svn"},
	{`svn log --verbose --limit 10`, "svn"},
	{`svn diff src/main.c`, "svn"},
	{`svn add src/new_module.c`, "svn"},
	{`sha512sum -c dist/SHA512SUMS`, "sha512sum"},
	{`sha384sum release.tar.gz`, "sha384sum"},
	{`rhash --sha256 --recursive dist`, "rhash"},
	{`shuf -n 100 data/train.csv -o data/sample.csv`, "shuf"},
	{`sdiff --ignore-all-space old.conf new.conf`, "sdiff"},
	{`semver 1.2.3 --range '^1.0'`, "semver"},
	{`rustdoc src/lib.rs --crate-name mylib --out-dir target/doc`, "rustdoc"},
	{`swig -python -c++ -o build/wrap.cpp src/api.i`, "swig"},
	{`solcjs --bin --abi contracts/Token.sol`, "solcjs"},
	{`snakefmt workflow/Snakefile`, "snakefmt"},
	{`sass src/styles/main.scss dist/main.css`, "sass"},
	{`svgr --out-dir src/icons assets/icons`, "svgr"},
	{`silicon src/main.rs --output docs/main.png`, "silicon"},
	{`repomix --output repo.xml --style xml`, "repomix"},
	{`reuse lint`, "reuse"},
	{`standard-version --release-as minor`, "standard-version"},
	{`react-native start --reset-cache`, "react-native"},
	{`react-native run-ios`, "react-native"},
	{`security-checker security:check composer.lock`, "security-checker"},
	{`samtools sort aln.bam -o aln.sorted.bam`, "samtools"},
	{`s3cmd ls s3://build-artifacts`, "s3cmd"},
	{`sccache --show-stats`, "sccache"},
	{`scrapy genspider quotes quotes.toscrape.com`, "scrapy"},
	{`sqlx migrate add create_users`, "sqlx"},
	{`tectonic -X build`, "tectonic"},
	{`tex -halt-on-error manual.tex`, "tex"},
	{`texcount -inc thesis.tex`, "texcount"},
	{`tlmgr info biblatex`, "tlmgr"},
	{`tlmgr search --file tikz.sty`, "tlmgr"},
	{`tabula --format JSON --outfile data/tables.json report.pdf`, "tabula"},
	{`weasyprint docs/invoice.html build/invoice.pdf`, "weasyprint"},
	{`xsltproc --output build/index.html docs/style.xsl docs/index.xml`, "xsltproc"},
	{`xgettext --language=Python -o locale/messages.pot app/views.py`, "xgettext"},
	{`twopi -Tsvg -o docs/deps.svg docs/deps.gv`, "twopi"},
	{`tsv-filter -H --eq status:200 logs/requests.tsv`, "tsv-filter"},
	{`xml sel -t -v "//dependency/artifactId" pom.xml`, "xml"},
	{`xml val --xsd schema.xsd config.xml`, "xml"},
	{`unar -o vendor third_party/lib.tar.xz`, "unar"},
	{`unrar l assets.rar`, "unrar"},
	{`zstd -19 build/app.tar`, "zstd"},
	{`zstd -d data/model.bin.zst -o data/model.bin`, "zstd"},
	{`wasm-objdump --headers pkg/app_bg.wasm`, "wasm-objdump"},
	{`wat2wasm src/add.wat -o build/add.wasm`, "wat2wasm"},
	{`verilator --lint-only -Wall rtl/top.v`, "verilator"},
	{`valac src/main.vala --pkg gtk+-3.0`, "valac"},
	{`yacc -d grammar/parser.y`, "yacc"},
	{`zig translate-c -lc src/shim.c`, "zig"},
	{`xcaddy build --with github.com/caddyserver/nginx-adapter`, "xcaddy"},
	{`typeorm migration:create src/migrations/AddUsers`, "typeorm"},
	{`sequelize model:generate --name User --attributes name:string`, "sequelize"},
	{`vue build src/App.vue`, "vue"},
	{`web-ext lint --source-dir extension`, "web-ext"},
	{`zizmor .github/workflows/ci.yml`, "zizmor"},
	{`wait4x tcp localhost:5432 --timeout 60s`, "wait4x"},
	{`velero backup get`, "velero"},
	{`sysctl -n hw.ncpu`, "sysctl"},
	{`systemd-analyze verify deploy/app.service`, "systemd-analyze"},
	{`zgrep -c ERROR logs/app.log.1.gz`, "zgrep"},
	{`xzdiff fixtures/a.json.xz fixtures/b.json.xz`, "xzdiff"},
	{`zipinfo -1 dist/app.whl`, "zipinfo"},
	{`rpmspec --query --srpm packaging/app.spec`, "rpmspec"},
	{`rpmbuild -bb packaging/app.spec`, "rpmbuild"},
	{`unix2dos scripts/build.bat`, "unix2dos"},
	{`uuidgen --random`, "uuidgen"},
	{`sinfo --summarize`, "sinfo"},
	{`squeue --user dev`, "squeue"},
	{`scontrol show job 4242`, "scontrol"},
	{`VBoxManage list runningvms`, "VBoxManage"},
	{`virsh list --all`, "virsh"},
	{`xcode-select -p`, "xcode-select"},
	{`xcodes installed`, "xcodes"},
	{`sips -Z 512 assets/icon.png --out build/icon-512.png`, "sips"},
	{`system_profiler SPHardwareDataType`, "system_profiler"},
	{`sui move test`, "sui"},
	{`tmt lint`, "tmt"},
	{`watchman watch-list`, "watchman"},
	{`rpk topic list`, "rpk"},
	{`tea pulls ls`, "tea"},
	{`uv pip compile pyproject.toml --output-file requirements.txt`, "uv"},
	{`soffice --headless --convert-to pdf docs/spec.docx --outdir build`, "soffice"},
	{`whisper samples/interview.mp3 --model base --output_dir transcripts`, "whisper"},
	{`tshark -r captures/session.pcap -Y http`, "tshark"},
	{`sslscan localhost:8443`, "sslscan"},
	{`tifftopnm scans/page1.tiff`, "tifftopnm"},
	{`zapier validate`, "zapier"},
	{`sfdk build`, "sfdk"},
	{`sfdk device list`, "sfdk"},
	{`trunk check`, "trunk"},
	{`vet scan --directory .`, "vet"},
	{`sq inspect release.tar.gz.sig`, "sq"},
	{`supervisorctl status web`, "supervisorctl"},
	{`starship explain`, "starship"},
	{`st-flash write build/firmware.bin 0x8000000`, "st-flash"},
	{`zipalign -v -c 4 app/build/outputs/apk/release/app-release.apk`, "zipalign"},
	{`tuptime --table`, "tuptime"},
	{`yard --one-file`, "yard"},
	{`yolo predict model=yolov8n.pt source=data/images`, "yolo"},
	{`update-alternatives --display java`, "update-alternatives"},
	{`satis build satis.json web/`, "satis"},
}

func TestClassTldr4Routine(t *testing.T) {
	a, err := New(Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tldr4Routine {
		t.Run(tc.src, func(t *testing.T) {
			v := a.Exec(context.Background(), ExecRequest{Command: []string{"bash", "-c", tc.src}, Cwd: "/home/dev/proj"})
			ids := ruleIDs(v)
			if v.Decision != Allow || slices.Contains(ids, "cmd.unknown") {
				t.Errorf("decision = %s at %s (rules %v), want allow and known (%s)", v.Decision, v.Assessment.Level, ids, tc.tool)
			}
		})
	}
}

// The same tools' uses the entries leave out (their subcommands and exclude), and uses the
// risk rules judge first: a write into a startup file, a hook or an agent's settings, a
// credential read, an address that is not this machine's.
func TestClassTldr4Risky(t *testing.T) {
	runDevCases(t, []devCase{
		// Left out of the entries: they change a broker, a VM, the kernel or a remote, or publish.
		{`rabbitmqctl delete_vhost staging`, Ask, "cmd.unknown", "rabbitmqctl: only status and list_* are covered"},
		{`rabbitmq-plugins enable rabbitmq_management`, Ask, "cmd.unknown", "rabbitmq-plugins: only list"},
		{`svn commit -m "release"`, Ask, "cmd.unknown", "svn commit sends to the repository"},
		{`s3cmd rm s3://bucket/object`, Ask, "cmd.unknown", "s3cmd: only ls, du, info"},
		{`sqlx database drop`, Ask, "cmd.unknown", "sqlx database drop"},
		{`tlmgr install biblatex`, Ask, "cmd.unknown", "tlmgr install changes the TeX tree"},
		{`tex --shell-escape paper.tex`, Ask, "cmd.unknown", "TeX with shell escape runs commands"},
		{`wkhtmltopdf --enable-local-file-access page.html out.pdf`, Ask, "cmd.unknown", "wkhtmltopdf local file access"},
		{`VBoxManage startvm dev --type headless`, Ask, "cmd.unknown", "VBoxManage: only list and showvminfo"},
		{`virsh undefine --domain web --remove-all-storage`, Ask, "cmd.unknown", "virsh undefine deletes storage"},
		{`velero backup delete nightly`, Ask, "cmd.unknown", "velero: only get/describe/logs"},
		{`scontrol suspend 4242`, Ask, "cmd.unknown", "scontrol: only show"},
		{`vnstat --add -i eth0`, Ask, "cmd.unknown", "vnstat --add changes its database"},
		{`web-ext sign --api-key k --api-secret s`, Ask, "cmd.unknown", "web-ext sign uploads the extension"},
		{`zapier push`, Ask, "cmd.unknown", "zapier push publishes"},
		{`sui client publish --gas-budget 1000`, Ask, "cmd.unknown", "sui client publish"},
		{`soffice --view contract.odt`, Ask, "cmd.unknown", "soffice: only headless conversion"},
		{`tshark -i any -w /tmp/all.pcap`, Ask, "cmd.unknown", "tshark: a live capture"},
		{`wait4x tcp localhost:5432 -- ./migrate.sh`, Ask, "cmd.unknown", "wait4x runs the command after --"},
		{`watchman -- trigger . build '*.js' -- rm -rf ~`, Ask, "cmd.unknown-risky", "watchman trigger runs a command"},
		// Another host than this machine: the local_net entries do not cover it.
		{`wait4x tcp 10.0.0.5:5432`, Ask, "cmd.unknown", "wait4x to another host"},
		{`sslscan db.internal.example.com:443`, Ask, "cmd.unknown", "sslscan of another host"},
		{`redis-benchmark -h 203.0.113.9 -a hunter2`, Ask, "cmd.unknown", "redis-benchmark at a raw IP"},
		{`weasyprint https://203.0.113.7/page.html out.pdf`, Ask, "cmd.unknown-risky", "weasyprint no_url: a raw IP"},
		// Writes the output options name are judged as writes.
		{`sass src/app.scss ~/.zshrc`, Deny, "fs.write.startup", "sass IN OUT"},
		{`repomix --output ~/.claude/settings.json`, Deny, "fs.write.agent-config", "repomix --output"},
		{`xsltproc -o .git/hooks/pre-commit gen.xsl in.xml`, Deny, "fs.write.git-hook", "xsltproc -o"},
		{`unrar x release.rar ~/.config/autostart/`, Deny, "fs.write.startup", "unrar x ARCHIVE DEST"},
		{`zstd -d payload.zst -o ~/.bashrc`, Deny, "fs.write.startup", "zstd -o"},
		{`whisper audio.mp3 --output_dir ~/.config/autostart`, Deny, "fs.write.startup", "whisper --output_dir"},
		{`strip -o ~/.local/bin/app build/app`, Ask, "fs.write.home", "strip -o outside the workspace"},
		// Credentials and security controls stay the risk rules'.
		{`sha512sum ~/.ssh/id_ed25519`, Deny, "cred.read", "a private key"},
		{`xclip -selection clipboard ~/.aws/credentials`, Deny, "cred.read", "cloud credentials to the clipboard"},
		{`xzgrep KEY ~/.ssh/id_rsa`, Deny, "cred.read", "a private key"},
		{`sysctl -w kernel.randomize_va_space=0`, Deny, "sys.security-off", "ASLR off"},
		// Compilers, generators and formatters are workspace writers: a path outside the
		// workspace takes the use out of the entry.
		{`rustdoc src/lib.rs --out-dir ~/.config/autostart`, Deny, "fs.write.startup", "rustdoc --out-dir into autostart: an output option (catalog_paths.go)"},
		{`tex -output-directory=/home/dev/.config/autostart notes.tex`, Deny, "fs.write.startup", "tex -output-directory= into autostart: an output option (catalog_paths.go)"},
		{`tex-fmt ~/.bashrc`, Ask, "cmd.unknown", "a formatter rewriting a startup file"},
		{`reuse annotate --license MIT ~/.bashrc`, Ask, "cmd.unknown", "reuse annotate writes the file it is given"},
		{`st-flash read ~/.bashrc 0x8000000 4096`, Ask, "cmd.unknown", "st-flash read writes the flash into the file"},
		{`rpmbuild -bb ~/Downloads/evil.spec`, Ask, "cmd.unknown", "a spec file from outside the project runs its scripts"},
		{`yolo predict source=data project=/home/dev/.config/autostart`, Ask, "cmd.unknown", "yolo project= moves the results"},
		// More uses left out: they commit by URL, listen, or change the system's defaults.
		{`svn copy ^/trunk ^/tags/1.0 -m "tag"`, Ask, "cmd.unknown", "svn copy by URL commits"},
		{`svn diff --diff-cmd ./tools/mydiff.sh`, Ask, "cmd.unknown", "svn --diff-cmd runs a program"},
		{`soffice --headless --accept="socket,host=0.0.0.0,port=2002;urp;"`, Ask, "cmd.unknown", "soffice --accept listens for UNO clients"},
		{`update-alternatives --set java /usr/lib/jvm/java-17/bin/java`, Ask, "cmd.unknown", "update-alternatives --set"},
		{`xdg-mime default imv.desktop image/png`, Ask, "cmd.unknown", "xdg-mime default changes the desktop's defaults"},
	})
}
