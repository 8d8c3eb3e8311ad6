package riskmodel

import "strings"

// Cloud operations whose effect is on docs/policy.md's deny list whatever the reason given:
// switching off audit logging and threat detection, granting administrator access, making
// stored data public, opening a machine's ports to the whole internet. cloud.change rates
// every AWS change high and uncertain (ask); these are certain. Sources: the AWS CLI
// reference for each operation (docs.aws.amazon.com/cli/latest/reference/SERVICE/OP.html),
// the S3 canned ACLs (docs.aws.amazon.com/AmazonS3/latest/userguide/acl-overview.html#canned-acl)
// and the AWS managed policies AdministratorAccess and IAMFullAccess.

// awsControlOff are operations that switch off an audit or detection control.
var awsControlOff = table[map[string]string]{build: func() map[string]string {
	return map[string]string{
		"cloudtrail stop-logging":                    "stops CloudTrail audit logging",
		"cloudtrail delete-trail":                    "deletes a CloudTrail audit trail",
		"guardduty delete-detector":                  "deletes the GuardDuty threat detector",
		"guardduty disassociate-from-master-account": "detaches the account from GuardDuty's administrator",
		"config stop-configuration-recorder":         "stops AWS Config recording",
		"config delete-configuration-recorder":       "deletes the AWS Config recorder",
		"securityhub disable-security-hub":           "disables Security Hub",
		"macie2 disable-macie":                       "disables Macie",
		"inspector2 disable":                         "disables Inspector",
		"access-analyzer delete-analyzer":            "deletes an IAM Access Analyzer",
		"s3api delete-public-access-block":           "removes the bucket's block on public access",
		"s3control delete-public-access-block":       "removes the account's block on public access",
	}
}}

// publicACLs are the S3 canned ACLs that let anyone (or any AWS user) read or write.
var publicACLs = table[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"public-read": true, "public-read-write": true, "authenticated-read": true}
}}

// awsCertainHarm says what an AWS CLI segment certainly does that the policy denies, or "".
func awsCertainHarm(s *Segment) string {
	if s.Name() != "aws" {
		return ""
	}
	p := s.positional(0, "--region", "--profile", "--output", "--endpoint-url", "--query", "--bucket", "--key", "--acl", "--policy",
		"--policy-arn", "--user-name", "--role-name", "--group-name", "--group-id", "--protocol", "--port", "--cidr", "--name",
		"--detector-id", "--ip-permissions", "--grant-read", "--grant-full-control", "--account-id")
	if len(p) < 2 {
		return ""
	}
	svc, op := p[0], p[1]
	if why, ok := awsControlOff.get()[svc+" "+op]; ok {
		return "Runs aws " + svc + " " + op + ", which " + why
	}
	acl, _ := optValue(s.Args[1:], "--acl")
	switch {
	case svc == "iam" && (op == "attach-user-policy" || op == "attach-role-policy" || op == "attach-group-policy"):
		if arn, _ := optValue(s.Args[1:], "--policy-arn"); strings.HasSuffix(arn, "/AdministratorAccess") || strings.HasSuffix(arn, "/IAMFullAccess") {
			return "Grants " + arn[strings.LastIndexByte(arn, '/')+1:] + " with aws iam " + op + ", full control of the account"
		}
	case (svc == "s3api" && (op == "put-bucket-acl" || op == "put-object-acl") || svc == "s3" && (op == "cp" || op == "sync" || op == "mv")) && publicACLs.get()[acl]:
		return "Makes S3 data readable by anyone with --acl " + acl
	case svc == "s3api" && (op == "put-bucket-acl" || op == "put-object-acl"):
		if g, _ := optValue(s.Args[1:], "--grant-read", "--grant-full-control"); strings.Contains(g, "AllUsers") || strings.Contains(g, "AuthenticatedUsers") {
			return "Grants everyone access to S3 data with aws s3api " + op
		}
	case svc == "s3api" && op == "put-bucket-policy":
		if pol, _ := optValue(s.Args[1:], "--policy"); publicPrincipal(pol) {
			return "Sets a bucket policy that lets anyone (Principal \"*\") read or change the bucket"
		}
	case svc == "ec2" && (op == "authorize-security-group-ingress"):
		cidr, _ := optValue(s.Args[1:], "--cidr")
		perms, _ := optValue(s.Args[1:], "--ip-permissions")
		if cidr == "0.0.0.0/0" || cidr == "::/0" || strings.Contains(perms, "0.0.0.0/0") || strings.Contains(perms, "::/0") {
			return "Opens the security group to the whole internet (" + strings.TrimSpace(cidr+" "+capText(perms)) + ")"
		}
	}
	return ""
}

// publicPrincipal reports an IAM policy document that grants to everyone with Allow.
func publicPrincipal(pol string) bool {
	compact := strings.NewReplacer(" ", "", "\n", "", "\t", "").Replace(pol)
	return strings.Contains(compact, `"Effect":"Allow"`) &&
		(strings.Contains(compact, `"Principal":"*"`) || strings.Contains(compact, `"Principal":{"AWS":"*"}`))
}

func cloudControlRules() []*Rule {
	return []*Rule{
		{
			ID: "cloud.control-off", Level: High, Category: CatSecurityWeakening,
			Message: "Switches off a cloud audit or detection control, grants administrator access, or makes data or a machine public",
			exec: func(c *execCtx, s *Segment) (string, bool) {
				why := awsCertainHarm(s)
				if why == "" {
					why = gcpAzureCertainHarm(s)
				}
				return why, why != ""
			},
		},
	}
}
