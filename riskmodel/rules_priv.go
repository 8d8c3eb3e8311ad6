package riskmodel

func privRules() []*Rule { return nil }
