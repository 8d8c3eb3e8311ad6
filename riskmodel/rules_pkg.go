package riskmodel

func pkgRules() []*Rule { return nil }
