package riskmodel

func netRules() []*Rule { return nil }
