// Command initprog links riskmodel and does nothing else, so that GODEBUG=inittrace=1 reports
// what riskmodel's package initialisation costs a process (TestInitAllocations).
package main

import _ "github.com/guardianhq/guardian/riskmodel"

func main() {}
