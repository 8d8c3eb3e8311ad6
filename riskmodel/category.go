package riskmodel

import (
	"fmt"
	"strings"
)

// Category names the kind of harm a request risks. It is a string so that it reads the same in
// JSON, TOML, logs and the eval datasets; ParseCategory keeps it to docs/design.md's closed list.
type Category string

// The risk categories of docs/design.md.
const (
	CatNone                  Category = "none"
	CatReadOnly              Category = "read_only"
	CatDataDeletion          Category = "data_deletion"
	CatDataExfiltration      Category = "data_exfiltration"
	CatCredentialAccess      Category = "credential_access"
	CatPrivilegeEscalation   Category = "privilege_escalation"
	CatRemoteCodeExecution   Category = "remote_code_execution"
	CatNetworkEgress         Category = "network_egress"
	CatSystemModification    Category = "system_modification"
	CatDestructiveVCS        Category = "destructive_vcs"
	CatResourceExhaustion    Category = "resource_exhaustion"
	CatPersistence           Category = "persistence"
	CatSecurityWeakening     Category = "security_weakening"
	CatFinancialOrProduction Category = "financial_or_production_change"
)

// Categories lists every category in docs/design.md's order.
func Categories() []Category {
	return []Category{CatNone, CatReadOnly, CatDataDeletion, CatDataExfiltration, CatCredentialAccess,
		CatPrivilegeEscalation, CatRemoteCodeExecution, CatNetworkEgress, CatSystemModification,
		CatDestructiveVCS, CatResourceExhaustion, CatPersistence, CatSecurityWeakening, CatFinancialOrProduction}
}

// ParseCategory checks s against the closed list; the error names the accepted values.
func ParseCategory(s string) (Category, error) {
	for _, c := range Categories() {
		if string(c) == s {
			return c, nil
		}
	}
	names := make([]string, 0, 14)
	for _, c := range Categories() {
		names = append(names, string(c))
	}
	return "", fmt.Errorf("unknown risk category %q (want one of %s)", s, strings.Join(names, ", "))
}

// UnmarshalText implements encoding.TextUnmarshaler so that datasets and model output with an
// unknown category are rejected at decode time.
func (c *Category) UnmarshalText(b []byte) error {
	v, err := ParseCategory(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
