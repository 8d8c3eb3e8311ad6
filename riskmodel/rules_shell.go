package riskmodel

func shellRules() []*Rule { return nil }
