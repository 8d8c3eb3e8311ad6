package riskmodel

func vcsRules() []*Rule { return nil }
