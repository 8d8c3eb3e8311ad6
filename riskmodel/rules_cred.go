package riskmodel

func credRules() []*Rule { return nil }
