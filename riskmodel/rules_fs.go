package riskmodel

func fsRules() []*Rule { return nil }
