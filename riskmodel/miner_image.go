package riskmodel

import "strings"

// A container or pod started from an image named after a cryptocurrency miner is a miner,
// whatever registry it comes from: docs/policy.md puts miners on the deny list under resource
// exhaustion, and a container only moves where the CPU is burnt. sys.miner reads the image
// of docker/podman/nerdctl run and create, docker service create, and the --image of kubectl
// (and oc) run, create deployment/job/cronjob and set image.

// minerImageNames are miners' own project names beside minerNames (the binaries), as their
// images are published: github.com/xmrig/xmrig, github.com/tpruvot/cpuminer-multi,
// github.com/ethereum-mining/ethminer, trex-miner.com, github.com/Lolliedieb/lolMiner-releases,
// github.com/NebuTech/NBMiner, phoenixminer.info, github.com/doktor83/SRBMiner-Multi,
// nicehash.com (NiceHashMiner, excavator), minergate.com (minergate-cli),
// github.com/tpruvot/ccminer, github.com/fireice-uk/xmr-stak, bzminer.com, github.com/andru-kun/wildrig-multi.
var minerImageNames = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{"srbminer": true, "nicehash": true, "nicehashminer": true, "minergate": true, "minergate-cli": true,
		"ccminer": true, "bminer": true, "cpuminer-opt": true, "bzminer": true, "wildrig": true, "wildrig-multi": true,
		"claymore": true, "kawpowminer": true, "hellminer": true, "xmrig-proxy": true, "xmr-stak-cpu": true, "trex": true}
	for n := range minerNames.get() {
		m[n] = true
	}
	return m
}}

// minerCoins are the coins an image named "<coin>-miner" mines: a miner whatever its project.
var minerCoins = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"monero": true, "xmr": true, "eth": true, "ethereum": true, "etc": true, "btc": true, "bitcoin": true,
		"ltc": true, "litecoin": true, "rvn": true, "ravencoin": true, "zec": true, "zcash": true, "kaspa": true, "kas": true,
		"ergo": true, "doge": true, "dogecoin": true, "crypto": true, "coin": true, "randomx": true, "cryptonight": true}
}}

// minerImage reports the image a container command starts when it is named after a miner.
func minerImage(s *Segment) (string, bool) {
	if len(s.Args) < 2 {
		return "", false
	}
	var images []string
	switch pkgNorm(s.Name()) {
	case "docker", "podman", "nerdctl", "finch":
		_, sub, rest := ctrSplit(s)
		switch sub {
		case "run", "create":
			_, image, _ := ctrParse(rest)
			images = append(images, image)
		case "service create":
			// Swarm's valued options are not all known here: every word is a candidate.
			for _, a := range rest {
				if !strings.HasPrefix(a, "-") {
					images = append(images, a)
				}
			}
		default:
			return "", false
		}
	case "kubectl", "oc":
		args := s.Args[1:]
		sub := ""
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				sub = a
				break
			}
		}
		if sub != "run" && sub != "create" && sub != "set" {
			return "", false
		}
		for i, a := range args {
			switch {
			case a == "--image" && i+1 < len(args):
				images = append(images, args[i+1])
			case strings.HasPrefix(a, "--image="):
				images = append(images, strings.TrimPrefix(a, "--image="))
			case sub == "set" && strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
				images = append(images, a[strings.IndexByte(a, '=')+1:]) // set image deploy/x app=IMAGE
			}
		}
	default:
		return "", false
	}
	for _, img := range images {
		if isMinerImage(img) {
			return img, true
		}
	}
	return "", false
}

// isMinerImage reports whether an image reference's repository (registry, tag and digest
// aside) has a path component named after a miner: the project's name alone or joined to a
// qualifier (xmrig, xmrig-cuda, docker-xmrig, cpuminer_opt), or a coin's name joined to
// miner/mining (monero-miner).
func isMinerImage(ref string) bool {
	ref = strings.ToLower(ref)
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		ref = ref[:i]
	}
	parts := strings.Split(ref, "/")
	if last := parts[len(parts)-1]; strings.Contains(last, ":") {
		parts[len(parts)-1] = last[:strings.IndexByte(last, ':')]
	}
	if len(parts) > 1 && (strings.ContainsAny(parts[0], ".:") || parts[0] == "localhost") {
		parts = parts[1:] // the registry
	}
	names := minerImageNames.get()
	for _, p := range parts {
		if p == "" {
			continue
		}
		if names[p] {
			return true
		}
		for n := range names {
			for _, sep := range []string{"-", "_", "."} {
				if strings.HasPrefix(p, n+sep) || strings.HasSuffix(p, sep+n) {
					return true
				}
			}
		}
		words := strings.FieldsFunc(p, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
		mining, coin := false, false
		for _, w := range words {
			switch {
			case w == "miner" || w == "mining" || w == "miners":
				mining = true
			case minerCoins.get()[w]:
				coin = true
			}
		}
		if mining && coin {
			return true
		}
	}
	return false
}
