package riskmodel

func sysRules() []*Rule { return nil }
