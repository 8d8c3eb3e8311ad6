package riskmodel

func interpRules() []*Rule { return nil }
