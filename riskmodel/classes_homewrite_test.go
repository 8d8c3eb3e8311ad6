package riskmodel

import "testing"

// Interpreter code that writes a shell startup file, authorized_keys, an autostart location or
// a credential store through a path it builds at run time from the home directory (joined with
// path functions, concatenated with the language's string operator, interpolated into a
// string) is judged like the shell's `tee -a ~/.bashrc`: persistence is denied, replacing a
// credential store is denied, adding to one is asked. Every language the inline analysis reads
// is covered; routine writes inside the workspace or to caches stay where they were.
func TestClassHomeBuiltWrites(t *testing.T) {
	runClassCases(t, []classCase{
		// Shell startup files: persistence.
		{src: `python3 -c "import os; f=open(os.path.join(os.path.expanduser('~'), '.zshrc'), 'a'); f.write('export PATH=/tmp/x:$PATH')"`, min: Critical, rule: "fs.write.startup", source: "os.path.join of expanduser"},
		{src: `python3 -c "import os; open(os.getenv('HOME') + '/.profile', mode='a').write('x')"`, min: Critical, rule: "fs.write.startup", source: "os.getenv, mode= keyword"},
		{src: `python3 -c "import os; open(f\"{os.environ['HOME']}/.bash_profile\", 'a').write('x')"`, min: Critical, rule: "fs.write.startup", source: "f-string"},
		{src: `python3 -c "import pathlib; (pathlib.Path.home() / '.bashrc').open('a').write('x')"`, min: Critical, rule: "fs.write.startup", source: "pathlib open('a')"},
		{src: `python3 -c "from pathlib import Path; Path.home().joinpath('.config', 'fish', 'config.fish').write_text('x')"`, min: Critical, rule: "fs.write.startup", source: "pathlib joinpath"},
		{src: `python3 -c "from pathlib import Path; Path('~/.zshenv').expanduser().write_text('x')"`, min: Critical, rule: "fs.write.startup", source: "Path(...).expanduser()"},
		{src: `node -e "const os=require('os'),fs=require('fs');fs.appendFileSync(os.homedir()+'/.bashrc','\nnode /tmp/x.js &\n')"`, min: Critical, rule: "fs.write.startup", source: "fs.appendFileSync"},
		{src: "node -e 'require(\"fs\").appendFile(`${require(\"os\").homedir()}/.zprofile`, \"x\", ()=>{})'", min: Critical, rule: "fs.write.startup", source: "template literal, callback appendFile"},
		{src: `node -e "require('fs').createWriteStream(require('path').join(process.env.HOME,'.profile'),{flags:'a'}).write('x')"`, min: Critical, rule: "fs.write.startup", source: "createWriteStream"},
		{src: `ruby -e "File.open(File.join(ENV['HOME'], '.bashrc'), 'a') { |f| f.puts 'x' }"`, min: Critical, rule: "fs.write.startup", source: "File.join(ENV['HOME'])"},
		{src: `ruby -e 'File.open("#{Dir.home}/.zshrc", "a") { |f| f.puts "x" }'`, min: Critical, rule: "fs.write.startup", source: "ruby interpolation"},
		{src: `perl -e 'open(my $fh, ">>", $ENV{HOME} . "/.profile") or die; print $fh "x\n"'`, min: Critical, rule: "fs.write.startup", source: "perl 3-arg open, . concatenation"},
		{src: `perl -e 'open F, ">$ENV{HOME}/.bash_login"; print F "x"'`, min: Critical, rule: "fs.write.startup", source: "perl 2-arg open without parentheses"},
		{src: `php -r '$f = fopen($_SERVER["HOME"] . "/.bashrc", "a"); fwrite($f, "x");'`, min: Critical, rule: "fs.write.startup", source: "php fopen, $_SERVER"},
		{src: `lua -e 'io.open(os.getenv("HOME") .. "/.zshrc", "a"):write("x")'`, min: Critical, rule: "fs.write.startup", source: "lua .. concatenation"},
		{src: `awk 'BEGIN { print "x" >> (ENVIRON["HOME"] "/.bashrc") }'`, min: Critical, rule: "fs.write.startup", source: "awk ENVIRON and print >>"},
		{src: `Rscript -e 'write("x", file = file.path(Sys.getenv("HOME"), ".profile"), append = TRUE)'`, min: Critical, rule: "fs.write.startup", source: "R file.path"},
		{src: `pwsh -c 'Add-Content -Path (Join-Path $HOME ".bashrc") -Value "x"'`, min: Critical, rule: "fs.write.startup", source: "PowerShell Join-Path $HOME"},
		{src: `pwsh -c 'Set-Content "$env:USERPROFILE/.zshrc" "x"'`, min: Critical, rule: "fs.write.startup", source: "PowerShell positional path"},
		{src: `echo 'set f [open "$env(HOME)/.profile" a]; puts $f x' | tclsh`, min: Critical, rule: "fs.write.startup", source: "tcl open a"},
		// Autostart and service files.
		{src: `python3 -c "import os; open(os.path.join(os.environ['HOME'], '.config', 'systemd', 'user', 'agent.service'), 'w').write('[Service]')"`, min: Critical, rule: "fs.write.startup", source: "systemd user unit"},
		{src: `node -e "require('fs').writeFileSync(require('os').homedir()+'/Library/LaunchAgents/com.x.agent.plist','<plist/>')"`, min: Critical, rule: "fs.write.startup", source: "macOS LaunchAgent"},
		// authorized_keys: remote login.
		{src: `python3 -c "from pathlib import Path; (Path.home() / '.ssh' / 'authorized_keys').open('a').write('ssh-ed25519 AAAA x')"`, min: Critical, rule: "fs.write.authorized-keys", source: "MITRE T1098.004"},
		{src: `node -e "require('fs').appendFileSync(require('path').join(require('os').homedir(), '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA x')"`, min: Critical, rule: "fs.write.authorized-keys", source: "path.join with three parts"},
		{src: `ruby -e "File.write(Dir.home + '/.ssh/authorized_keys', 'ssh-ed25519 AAAA x', mode: 'a')"`, min: Critical, rule: "fs.write.authorized-keys", source: "ruby File.write mode: 'a'"},
		{src: `perl -e 'open(K, ">>$ENV{HOME}/.ssh/authorized_keys"); print K "ssh-ed25519 AAAA x\n"'`, min: Critical, rule: "fs.write.authorized-keys", source: "perl interpolated home"},
		{src: `python3 -c "import os; h=os.path.expanduser('~'); open(h + '/.ssh/authorized_keys', 'a').write('ssh-ed25519 AAAA x')"`, min: Critical, rule: "fs.write.authorized-keys", source: "home held in a variable"},
		// Credential stores: replaced is denied, added to is asked (high either way).
		{src: `python3 -c "import os; open(os.path.join(os.environ['HOME'], '.aws', 'credentials'), 'w').write('[default]')"`, min: High, rule: "fs.write.credential", source: "AWS credentials file replaced"},
		{src: `node -e "require('fs').appendFileSync(require('os').homedir()+'/.netrc','machine evil.example login a password b')"`, min: High, rule: "fs.write.credential", source: "netrc(5) appended"},
		{src: `php -r 'file_put_contents(getenv("HOME")."/.pgpass", "h:5432:*:u:p", FILE_APPEND);'`, min: High, rule: "fs.write.credential", source: "php FILE_APPEND"},
		// Routine: the workspace, caches, reads of ordinary files.
		{src: `python3 -c "open('notes.txt', 'a').write('x')"`, max: Medium, notRule: "fs.write.startup", source: "routine: a workspace file"},
		{src: `python3 -c "from pathlib import Path; Path('build/out.txt').write_text('x')"`, max: Medium, source: "routine: pathlib in the workspace"},
		{src: `awk '{ print > "out.txt" }' data.txt`, max: Medium, source: "routine: awk splits into a workspace file"},
		{src: `node -e "console.log(require('fs').readFileSync(require('os').homedir()+'/.bashrc','utf8'))"`, max: Medium, notRule: "fs.write.startup", source: "routine: reads an rc file"},
		{src: `python3 -c "import os; print(os.path.join(os.path.expanduser('~'), '.bashrc'))"`, max: Low, source: "routine: prints a path"},
		{src: `python3 -c "print('~' + '/.bashrc')"`, max: Low, source: "routine: prints a string"},
	})
}
