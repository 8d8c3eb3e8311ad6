package riskmodel

func cloudRules() []*Rule { return nil }
