package riskmodel

import (
	"regexp"
	"strings"
)

// Kubernetes security controls switched off: the objects that enforce isolation and admission
// (NetworkPolicies, Istio's PeerAuthentication and AuthorizationPolicy, admission webhooks,
// Kyverno and Gatekeeper policies, Pod Security labels) deleted or weakened, and the security
// and backup tooling (Falco, Kyverno, Gatekeeper, Velero, …) uninstalled or scaled to zero.
// docs/policy.md denies disabling security controls. Sources: the Kubernetes API reference
// (kubernetes.io/docs/reference/kubernetes-api: NetworkPolicy, ValidatingWebhookConfiguration,
// ValidatingAdmissionPolicy, Pod Security Admission labels), Istio's security API
// (istio.io/latest/docs/reference/config/security: PeerAuthentication mtls.mode DISABLE /
// PERMISSIVE, AuthorizationPolicy; networking DestinationRule tls.mode DISABLE), Kyverno's
// ClusterPolicy/Policy (kyverno.io/docs), Gatekeeper's ConstraintTemplate
// (open-policy-agent.github.io/gatekeeper), Velero's Schedule and Backup (velero.io/docs),
// Cilium's and Calico's network policy kinds, and each tool's Helm chart name on artifacthub.io.

// k8sSecurityKind is what deleting one kind of object switches off, and whether that is
// certain whatever the object's name.
type k8sSecurityKind struct {
	what string
	sure bool
}

// k8sSecurityKinds are the kinds (as kubectl accepts them: singular, plural, short name,
// kind.group) whose objects are security controls.
var k8sSecurityKinds = table[map[string]k8sSecurityKind]{build: func() map[string]k8sSecurityKind {
	t := map[string]k8sSecurityKind{}
	add := func(what string, sure bool, names ...string) {
		for _, n := range names {
			t[n] = k8sSecurityKind{what, sure}
		}
	}
	add("a network policy (the pods' firewall)", false, "networkpolicy", "networkpolicies", "netpol", "netpols",
		"ciliumnetworkpolicy", "ciliumnetworkpolicies", "cnp", "ciliumclusterwidenetworkpolicy", "ciliumclusterwidenetworkpolicies", "ccnp",
		"globalnetworkpolicy", "globalnetworkpolicies", "gnp", "adminnetworkpolicy", "adminnetworkpolicies", "anp",
		"baselineadminnetworkpolicy", "baselineadminnetworkpolicies", "banp")
	add("Istio's mutual-TLS policy", true, "peerauthentication", "peerauthentications", "pa")
	add("an Istio authorization policy", true, "authorizationpolicy", "authorizationpolicies", "ap", "requestauthentication", "requestauthentications", "ra")
	add("an admission webhook", false, "validatingwebhookconfiguration", "validatingwebhookconfigurations",
		"mutatingwebhookconfiguration", "mutatingwebhookconfigurations")
	add("an admission policy", true, "validatingadmissionpolicy", "validatingadmissionpolicies", "validatingadmissionpolicybinding",
		"validatingadmissionpolicybindings", "podsecuritypolicy", "podsecuritypolicies", "psp")
	add("a Kyverno policy", true, "clusterpolicy", "clusterpolicies", "cpol", "clusterpolicies.kyverno.io", "policies.kyverno.io", "policy.kyverno.io")
	add("a Gatekeeper policy", true, "constrainttemplate", "constrainttemplates", "constraints", "assign", "assignmetadata")
	add("a Velero backup schedule", true, "schedules.velero.io", "schedule.velero.io", "backupstoragelocation", "backupstoragelocations", "bsl")
	add("Falco's detection rules", true, "falcorules", "falcoconfig")
	return t
}}

// k8sSecurityTools are security and backup tools by the names their charts, releases,
// namespaces and workloads carry.
var k8sSecurityTools = table[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`falco falcosidekick kyverno gatekeeper velero trivy-operator starboard neuvector stackrox rhacs
		sysdig sysdig-agent falcon-sensor crowdstrike twistlock prisma-cloud wazuh tetragon tracee kubearmor kubewarden connaisseur
		ratify kasten k10 k8up aqua polaris policy-controller opa-gatekeeper gatekeeper-system kube-bench kyverno-policies
		calico-policy-controller cert-manager-policy`) {
		m[w] = true
	}
	return m
}}

// k8sSecurityTool reports a release, namespace or workload name that names a security or
// backup tool: the whole name, or its first dash-separated word (falco-exporter,
// kyverno-admission-controller, velero-node-agent).
func k8sSecurityTool(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	if n == "" {
		return ""
	}
	if k8sSecurityTools.get()[n] {
		return n
	}
	first, _, _ := strings.Cut(n, "-")
	if k8sSecurityTools.get()[first] {
		return first
	}
	return ""
}

// k8sKindOf returns the security kind a resource argument names (kind, kind/name, kind.group,
// a comma list) and the name it carries, ok false when none does.
func k8sKindOf(res string) (k8sSecurityKind, string, bool) {
	for _, r := range strings.Split(strings.ToLower(res), ",") {
		kind, name, _ := strings.Cut(r, "/")
		if k, ok := k8sSecurityKinds.get()[kind]; ok {
			return k, name, true
		}
		base, _, _ := strings.Cut(kind, ".")
		if k, ok := k8sSecurityKinds.get()[base]; ok && (strings.HasSuffix(kind, ".k8s.io") || strings.HasSuffix(kind, ".istio.io") ||
			strings.HasSuffix(kind, ".kyverno.io") || strings.HasSuffix(kind, ".sh") || strings.HasSuffix(kind, ".cilium.io") ||
			strings.HasSuffix(kind, ".projectcalico.org") || kind == base) {
			return k, name, true
		}
	}
	return k8sSecurityKind{}, "", false
}

// r16K8sRe holds the expressions of this file, compiled together on first use.
var r16K8sRe = table[struct{ denyish, secHook, manifestOff *regexp.Regexp }]{build: func() struct{ denyish, secHook, manifestOff *regexp.Regexp } {
	return struct{ denyish, secHook, manifestOff *regexp.Regexp }{
		// A network policy that blocks by default: deleting it opens the pods.
		denyish: regexp.MustCompile(`(?i)(deny|default|isolat|block|restrict|lockdown|zero-?trust|baseline)`),
		// An admission webhook of a policy or security tool.
		secHook: regexp.MustCompile(`(?i)(kyverno|gatekeeper|opa|policy|psa|pod-?security|security|falco|kubewarden|validat|sigstore|cosign|connaisseur|ratify|neuvector|stackrox|admission-control)`),
		// A manifest or patch that switches mutual TLS off, or a namespace let run privileged pods.
		manifestOff: regexp.MustCompile(`(?is)(peerauthentication|"?mtls"?\s*:).{0,400}?"?mode"?\s*:\s*"?(disable|permissive)\b|pod-security\.kubernetes\.io/enforce"?\s*[:=]\s*"?privileged`),
	}
}}

// k8sDeleteOff says what deleting these objects switches off and whether that is certain.
func k8sDeleteOff(res string, names []string, all bool) (string, bool) {
	k, name, ok := k8sKindOf(res)
	if !ok {
		return "", false
	}
	if name != "" {
		names = append(names, name)
	}
	sure := k.sure || all
	for _, n := range names {
		switch {
		case strings.Contains(k.what, "network policy") && r16K8sRe.get().denyish.MatchString(n):
			sure = true
		case strings.Contains(k.what, "webhook") && r16K8sRe.get().secHook.MatchString(n):
			sure = true
		}
	}
	what := "deletes " + k.what
	if all {
		what = "deletes every " + strings.TrimPrefix(strings.TrimPrefix(k.what, "a "), "an ")
	} else if len(names) > 0 {
		what += " (" + capText(strings.Join(names, " ")) + ")"
	}
	return what, sure
}

// manifestWeakens says what a manifest or patch text switches off, and whether that is certain
// (PERMISSIVE mTLS still accepts mutual TLS: a migration step, asked).
func manifestWeakens(text string) (string, bool) {
	m := r16K8sRe.get().manifestOff.FindStringSubmatch(mcpClip(text, 256<<10))
	if m == nil {
		return "", false
	}
	switch strings.ToLower(m[2]) {
	case "disable":
		return "switches mutual TLS off (mode DISABLE), so the services talk in plain text", true
	case "permissive":
		return "lets the services accept plain-text traffic (mTLS mode PERMISSIVE)", false
	}
	return "lets every pod in the namespace run privileged (Pod Security enforce=privileged)", true
}

// kubeValueOpts are kubectl's and helm's options that take a value.
var kubeValueOpts = &wordSet{words: "-n --namespace --context --kubeconfig --cluster --user -l --selector -o --output -f --filename -p --patch --type --replicas --timeout --field-selector -c --container --as --server -s --token"}

// kubeSecurityOff says what a kubectl, oc or helm call switches off, "" when none.
func kubeSecurityOff(s *Segment) (string, bool) {
	name := s.Name()
	if name != "kubectl" && name != "oc" && name != "helm" {
		return "", false
	}
	var pos []string
	args := s.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if kubeValueOpts.has(a) && i+1 < len(args) {
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	if len(pos) == 0 {
		return "", false
	}
	ns, _ := optValue(args, "-n", "--namespace")
	all := hasArg(s.Args, "--all", "-A", "--all-namespaces")
	if name == "helm" {
		switch pos[0] {
		case "uninstall", "delete", "del", "un":
			for _, r := range pos[1:] {
				if t := k8sSecurityTool(r); t != "" {
					return "uninstalls " + t + " (helm " + pos[0] + " " + r + "), a security or backup tool", true
				}
			}
			if t := k8sSecurityTool(ns); t != "" && len(pos) > 1 {
				return "uninstalls " + pos[1] + " from the " + ns + " namespace, a security or backup tool", true
			}
		}
		return "", false
	}
	switch pos[0] {
	case "delete":
		if len(pos) < 2 {
			return "", false
		}
		if why, sure := k8sDeleteOff(pos[1], pos[2:], all); why != "" {
			return why, sure
		}
		kind, n, _ := strings.Cut(strings.ToLower(pos[1]), "/")
		switch kind {
		case "deployment", "deployments", "deploy", "daemonset", "daemonsets", "ds", "statefulset", "statefulsets", "sts":
			names := pos[2:]
			if n != "" {
				names = append(names, n)
			}
			for _, w := range names {
				if t := k8sSecurityTool(w); t != "" {
					return "deletes the " + t + " workload (" + w + "), a security or backup tool", true
				}
			}
		}
	case "scale":
		r, _ := optValue(args, "--replicas")
		if r != "0" {
			return "", false
		}
		for _, w := range pos[1:] {
			if t := k8sSecurityTool(w); t != "" {
				return "scales " + w + " to zero, stopping " + t + ", a security or backup tool", true
			}
		}
	case "label":
		for _, a := range pos[1:] {
			if strings.HasPrefix(a, "pod-security.kubernetes.io/enforce") && strings.HasSuffix(a, "-") {
				return "removes the namespace's Pod Security enforcement (" + a + ")", true
			}
		}
	case "patch", "apply", "create", "replace", "set":
		text := strings.Join(s.Args[1:], " ") + "\n" + s.Stdin
		if p := s.PipeIn; p != nil {
			text += "\n" + strings.Join(p.Args, " ") + "\n" + p.Stdin
		}
		if pos[0] == "patch" && len(pos) > 1 {
			text = pos[1] + " " + text
		}
		return manifestWeakens(text)
	}
	return "", false
}

func kubeSecurityOffRule(c *execCtx, s *Segment) (string, bool) {
	why, sure := kubeSecurityOff(s)
	if why == "" {
		return "", false
	}
	if !sure {
		c.certainty = certaintyUnsure // one allow rule, or mTLS permissive: a change a human may want
	}
	return "Runs " + s.Name() + ", which " + why, true
}
