package riskmodel

import "strings"

// Windows program names. A program named by a Windows path (C:\Program Files\…\RunUAT.bat,
// .\tools\gen.exe) or with its executable extension (dotnet.exe, MSBuild.exe) is the same
// program as its base name: Windows finds it through PATHEXT, and names are case-blind.
// Segment.Name reads it so, once, for the catalogue and every rule.
// Sources: Microsoft Learn, "Naming Files, Paths, and Namespaces"; cmd's "where" and PATHEXT
// (.COM;.EXE;.BAT;.CMD are the executable extensions every Windows install lists).

// winProgramPath reports a program word written as a Windows path: a drive letter, or a
// relative .\ or ..\ path. A Unix word with a backslash in it (an escape the shell kept) is
// not one.
func winProgramPath(n string) bool {
	return len(n) >= 3 && n[1] == ':' && (n[2] == '\\' || n[2] == '/') && isASCIILetter(n[0]) ||
		strings.HasPrefix(n, `.\`) || strings.HasPrefix(n, `..\`) || strings.HasPrefix(n, `\\`)
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// winProgramName drops an executable extension (.exe, .com, .bat, .cmd) and then reads the
// name in lower case, as Windows does; any other name is returned as it is.
func winProgramName(n string) string {
	if pwshCmdletSpelling(n) {
		return strings.ToLower(n) // Get-ChildItem, get-childitem: one cmdlet
	}
	if len(n) <= 4 || n[len(n)-4] != '.' {
		return n
	}
	switch strings.ToLower(n[len(n)-4:]) {
	case ".exe", ".com", ".bat", ".cmd":
		return strings.ToLower(n[:len(n)-4])
	}
	return n
}

// pwshCmdletSpelling reports a name spelt as a PowerShell cmdlet, Verb-Noun in letters with
// both parts capitalised (Invoke-Pester, Get-ChildItem); PowerShell names are case-blind, so
// it is read in lower case, the spelling the catalogue lists.
func pwshCmdletSpelling(n string) bool {
	i := strings.IndexByte(n, '-')
	if i <= 0 || i+1 >= len(n) || n[0] < 'A' || n[0] > 'Z' || n[i+1] < 'A' || n[i+1] > 'Z' {
		return false
	}
	for j := 0; j < len(n); j++ {
		if c := n[j]; c != '-' && !isASCIILetter(c) && (c < '0' || c > '9') {
			return false
		}
	}
	return strings.Count(n, "-") == 1
}
