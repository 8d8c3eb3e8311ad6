package riskmodel

func baselineRules() []*Rule { return nil }
