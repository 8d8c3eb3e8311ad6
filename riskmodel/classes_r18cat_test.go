package riskmodel

import "testing"

// The r18 persona's tools, catalogued in catalog/commands_r18.toml: routine uses allowed,
// writes to a live store or a production site asked. Sources: each entry's source line.
func TestClassR18CatRoutine(t *testing.T) {
	runDevCases(t, []devCase{
		{`adb -s emulator-5556 install -r -t build/app-debug.apk`, Allow, "", "debug build onto the emulator"},
		{`adb shell am force-stop com.example.shop.debug`, Allow, "", "stops the app"},
		{`adb shell pm clear com.example.shop.debug`, Allow, "", "clears the app under development"},
		{`adb reverse tcp:3000 tcp:3000`, Allow, "", "device to this machine's loopback"},
		{`adb logcat -d -s ReactNativeJS`, Allow, "", "logs"},
		{`adb root`, Ask, "", "root on the device: not covered"},
		{`adb shell rm -rf /sdcard/DCIM`, Ask, "", "file deletion on the device: not covered"},
		{`emulator -avd Nexus_6_API_30 -wipe-data`, Allow, "", "local emulator"},
		{`xcrun simctl boot "iPhone 15"`, Allow, "", "simulator"},
		{`xcrun simctl openurl booted myapp://cart`, Allow, "", "deep link in the simulator"},
		{`xcrun xcresulttool get test-results summary --path out.xcresult`, Allow, "", "test results"},
		{`xcrun notarytool info 2efe2717-52ef-43a5-96dc-0797e4ca1041 --keychain-profile notary`, Allow, "", "notarisation status"},
		{`xcrun notarytool submit App.zip --keychain-profile notary --wait`, Ask, "", "upload to Apple: not covered"},
		{`sdk install gradle 8.7`, Allow, "", "per-user toolchain"},
		{`west flash --runner jlink`, Allow, "", "flashes the dev board"},
		{`west forall -c "git reset --hard"`, Ask, "", "forall runs a command: not covered"},
		{`idf.py -p /dev/cu.usbserial-0001 -b 921600 flash`, Allow, "", "ESP-IDF flash with globals"},
		{`nrfjprog --eraseall`, Allow, "", "erases the dev kit"},
		{`arm-none-eabi-nm -S --size-sort build/fw.elf`, Allow, "", "symbols"},
		{`arm-none-eabi-objcopy -O binary build/fw.elf build/fw.bin`, Allow, "", "image conversion in the workspace"},
		{`ceedling gcov:all`, Allow, "", "unit tests with coverage"},
		{`Unity -batchmode -nographics -projectPath . -runTests -testPlatform PlayMode`, Allow, "", "Unity tests"},
		{`wp theme list --status=active`, Allow, "", "local WP-CLI listing"},
		{`wp i18n make-json languages --no-purge`, Allow, "", "translation files"},
		{`wp rewrite flush --hard`, Allow, "", "local rewrites"},
		{`wp plugin list --ssh=deploy@example.org/var/www`, Ask, "", "remote site: not covered"},
		{`wp config get DB_PASSWORD`, Ask, "", "secret: not covered"},
		{`wp plugin install query-monitor --activate`, Ask, "", "local install: asked"},
		{`shopify theme check --path theme --fail-level suggestion`, Allow, "", "theme lint"},
		{`shopify theme dev --store acme-dev --theme-editor-sync`, Allow, "", "development theme"},
		{`shopify app function build`, Allow, "", "builds a function"},
		{`shopify theme push --theme 12345 --allow-live`, Ask, "", "live theme: asked"},
		{`shopify theme publish --theme 12345`, Ask, "", "publishing: asked"},
		{`hs project create --name promo`, Allow, "", "HubSpot scaffold"},
		{`hs project upload`, Ask, "", "deploy: asked"},
		{`mjml src/receipt.mjml -o build/receipt.html`, Allow, "", "email template"},
		{`valet links`, Allow, "", "lists linked sites"},
		{`valet share`, Ask, "", "exposes the site: not covered"},
	})
}

// The destructive uses (r18cat_tools.go). Sources: docs.fastlane.tools/actions/match_nuke,
// shopify.dev theme delete, WP-CLI command reference and remote-running guide, ab/hey/wrk/
// siege/oha/k6 references, Unity's command-line arguments, GitLab's protected branches API.
func TestClassR18CatDestructive(t *testing.T) {
	runDevCases(t, []devCase{
		{`fastlane match nuke development`, Deny, "app.signing-nuke", "nuke"},
		{`bundle exec fastlane match nuke enterprise`, Deny, "app.signing-nuke", "through bundle exec"},
		{`fastlane run match_nuke type:appstore`, Ask, "", "run ACTION: unknown as today"},
		{`fastlane match development --readonly`, Ask, "", "match readonly: as today"},
		{`shopify theme delete -t 98765 -f --store acme.myshopify.com`, Deny, "prod.store-theme-delete", "store theme"},
		{`shopify theme delete --development`, Ask, "", "own development theme"},
		{`wp db drop --yes --ssh=www@shop.example.com/srv/www`, Deny, "prod.wp-remote-destroy", "remote db drop"},
		{`wp @production db reset --yes`, Deny, "prod.wp-remote-destroy", "alias"},
		{`wp user create ops ops@example.net --role=administrator --http=https://example.com`, Deny, "prod.wp-remote-destroy", "remote admin"},
		{`wp user set-role 7 administrator --ssh=deploy@example.com`, Deny, "prod.wp-remote-destroy", "promotion"},
		{`wp plugin deactivate sucuri-scanner --ssh=deploy@example.com/var/www`, Deny, "prod.wp-remote-destroy", "security plugin"},
		{`wp plugin uninstall better-wp-security --ssh=deploy@example.com`, Deny, "prod.wp-remote-destroy", "iThemes"},
		{`wp plugin deactivate hello-dolly --ssh=deploy@example.com`, Ask, "", "an ordinary plugin: asked"},
		{`wp db reset --yes`, Ask, "", "local database: asked"},
		{`wp user create qa qa@example.test --role=administrator`, Ask, "", "local admin: asked"},
		{`ab -n 2000000 -c 50 https://www.example.com/`, Deny, "net.load-flood", "two million requests"},
		{`hey -z 10m -c 5000 https://shop.example.org/cart`, Deny, "net.load-flood", "five thousand workers"},
		{`wrk -t12 -c4000 -d1h https://api.example.net/`, Deny, "net.load-flood", "wrk connections"},
		{`siege -c 1500 -r 100 https://example.com/`, Deny, "net.load-flood", "siege"},
		{`ab -n 1000 -c 10 http://127.0.0.1:8080/`, Allow, "", "loopback"},
		{`ab -n 5000000 -c 2000 http://localhost:3000/`, Allow, "", "loopback, any size"},
		{`hey -n 200 -c 5 https://staging.example.com/health`, Ask, "", "small test of another host: as today"},
		{`Unity -batchmode -quit -projectPath . -importPackage ~/Downloads/Terrain_Tools.unitypackage`, Deny, "pkg.unity-untrusted-import", "from Downloads"},
		{`Unity -batchmode -projectPath . -importPackage vendor/AssetStore_nulled.unitypackage -quit`, Deny, "pkg.unity-untrusted-import", "nulled"},
		{`Unity -batchmode -quit -projectPath . -importPackage Packages/Local/Tools.unitypackage`, Ask, "", "a package in the project: asked"},
		{`glab api -X PUT projects/12/repository/branches/main/unprotect`, Deny, "vcs.repo-control", "GitLab unprotect"},
		{`glab api --method DELETE projects/12/protected_branches/main`, Deny, "vcs.repo-control", "GitLab protection removed"},
	})
}
