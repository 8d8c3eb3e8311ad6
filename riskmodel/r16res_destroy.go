package riskmodel

import (
	"fmt"
	"regexp"
	"strings"
)

// Destruction of production infrastructure that the generic cloud rules only ask about:
// deleting DNS records or zones (a site, its mail and its certificates' validation vanish
// at once, and caches keep the gap for the TTL), replacing a database through Terraform
// (-replace, or forgetting it with state rm and applying a new empty one), and uninstalling
// the Helm release of a data store. docs/policy.md: destruction of data the user never
// mentioned; deleting volumes, backups, projects. The same commands against a zone, a
// release or a namespace named for development, test, staging or a preview stay asked.

// r16DevTarget matches words that name a development, test or throwaway target.
var r16DevTarget = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^a-z])(dev|devel|development|staging|stage|stg|test|tests|testing|sandbox|preview|qa|uat|local|localhost|tmp|temp|scratch|demo|review|pr-?\d+|kind|minikube|docker-desktop|k3d|ephemeral)([^a-z]|$)`)
}}

// dnsDeletes are the DNS delete commands: tool and subcommand words ("*" for any one word).
var dnsDeletes = table[[]capSpec]{build: func() []capSpec {
	return []capSpec{
		{tool: "gcloud", path: []string{"dns", "record-sets", "delete"}},
		{tool: "gcloud", path: []string{"dns", "record-sets", "transaction", "remove"}},
		{tool: "gcloud", path: []string{"dns", "managed-zones", "delete"}},
		{tool: "az", path: []string{"network", "dns", "record-set", "*", "delete"}},
		{tool: "az", path: []string{"network", "dns", "record-set", "*", "remove-record"}},
		{tool: "az", path: []string{"network", "dns", "zone", "delete"}},
		{tool: "az", path: []string{"network", "private-dns", "record-set", "*", "delete"}},
		{tool: "az", path: []string{"network", "private-dns", "zone", "delete"}},
		{tool: "doctl", path: []string{"compute", "domain", "records", "delete"}},
		{tool: "doctl", path: []string{"compute", "domain", "delete"}},
		{tool: "flarectl", path: []string{"dns", "delete"}},
		{tool: "flarectl", path: []string{"dns", "d"}},
		{tool: "hcloud", path: []string{"zone", "delete"}},
		{tool: "linode-cli", path: []string{"domains", "records-delete"}},
		{tool: "linode-cli", path: []string{"domains", "delete"}},
		{tool: "aws", path: []string{"route53", "delete-hosted-zone"}},
		{tool: "aws", path: []string{"route53", "change-resource-record-sets"}},
		{tool: "aws", path: []string{"lightsail", "delete-domain-entry"}},
	}
}}

// route53Delete matches a change batch that deletes: "Action": "DELETE".
var route53Delete = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)"?action"?\s*[:=]\s*"?delete\b`)
}}

// dnsDelete says why s deletes production DNS, "" when it does not.
func dnsDelete(s *Segment) string {
	if len(s.Args) < 3 {
		return ""
	}
	tool := baseName(s.Args[0])
	for _, sp := range dnsDeletes.get() {
		if sp.tool != tool {
			continue
		}
		at := capAt(s.Args, sp.path)
		if at < 0 {
			continue
		}
		rest := strings.Join(s.Args[at:], " ")
		if sp.path[len(sp.path)-1] == "change-resource-record-sets" && !route53Delete.get().MatchString(rest) {
			return ""
		}
		if r16DevTarget.get().MatchString(rest) {
			return ""
		}
		return fmt.Sprintf("%s %s deletes DNS of a zone not named for development or test: the names stop resolving for every client", tool, strings.Join(s.Args[1:at], " "))
	}
	return ""
}

// tfDataAddr matches Terraform and Pulumi addresses of data stores: databases, caches,
// queues with messages, buckets and volumes, across the AWS, Google, Azure, DigitalOcean and
// MongoDB Atlas providers, and modules named for them.
var tfDataAddr = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[.:/"'])(aws_(db_instance|rds_\w+|dynamodb_table|elasticache_\w+|docdb_\w+|neptune_\w+|redshift_\w+|s3_bucket|efs_file_system|ebs_volume|opensearch_domain|elasticsearch_domain|msk_cluster|kinesis_stream|memorydb_\w+|keyspaces_\w+|timestream_\w+)|google_(sql_\w+|bigquery_\w+|storage_bucket|spanner_\w+|bigtable_\w+|redis_instance|alloydb_\w+|firestore_\w+|filestore_\w+|compute_disk)|azurerm_(mssql_\w+|postgresql_\w+|mysql_\w+|cosmosdb_\w+|storage_account|redis_cache|sql_\w+|mariadb_\w+|managed_disk)|digitalocean_(database_\w+|volume|spaces_bucket)|mongodbatlas_\w*cluster|(rds|dynamodb|sql|elasticache|docdb|redshift|s3)/\w+|module\.\w*(db|database|rds|postgres|pg|mysql|redis|mongo|data|storage|warehouse)\w*)`)
}}

// tfTools are the Terraform-compatible CLIs.
var tfTools = wordSet{words: `terraform tofu terragrunt pulumi`}

// tfReplaceData says why s replaces or forgets a data store that an apply then recreates
// empty, "" when it does not.
func tfReplaceData(c *execCtx, s *Segment) string {
	if len(s.Args) < 3 || !tfTools.has(baseName(s.Args[0])) {
		return ""
	}
	tool := baseName(s.Args[0])
	pos := positionals(s.Args[1:])
	if len(pos) == 0 {
		return ""
	}
	switch pos[0] {
	case "apply", "up", "run-all", "update":
		for i, a := range s.Args {
			v := ""
			switch {
			case strings.HasPrefix(a, "-replace="), strings.HasPrefix(a, "--replace="):
				v = a[strings.Index(a, "=")+1:]
			case (a == "-replace" || a == "--replace") && i+1 < len(s.Args):
				v = s.Args[i+1]
			}
			if v != "" && tfDataAddr.get().MatchString(v) {
				return fmt.Sprintf("%s %s -replace=%s destroys the data store and creates an empty one in its place", tool, pos[0], v)
			}
		}
	case "taint", "state":
		addrs := pos[1:]
		if pos[0] == "state" {
			if len(pos) < 3 || (pos[1] != "rm" && pos[1] != "remove") {
				return ""
			}
			addrs = pos[2:]
		}
		data := ""
		for _, a := range addrs {
			if tfDataAddr.get().MatchString(a) {
				data = a
			}
		}
		if data == "" {
			return ""
		}
		for _, o := range c.segs {
			if o == s || len(o.Args) < 2 || !tfTools.has(baseName(o.Args[0])) {
				continue
			}
			if p := positionals(o.Args[1:]); len(p) > 0 && (p[0] == "apply" || p[0] == "up") {
				return fmt.Sprintf("%s %s %s and then an apply: the data store is recreated empty (taint) or a new empty one replaces it (state rm)", tool, strings.Join(pos[:min(2, len(pos))], " "), data)
			}
		}
	}
	return ""
}

// dataStoreRelease matches Helm release and chart names of data stores.
var dataStoreRelease = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^a-z])(postgres|postgresql|pg|pgsql|mysql|mariadb|percona|redis|valkey|keydb|dragonfly|mongo|mongodb|kafka|zookeeper|elasticsearch|opensearch|elastic|cassandra|scylla|scylladb|rabbitmq|etcd|minio|clickhouse|cockroach|cockroachdb|timescale|timescaledb|influxdb|neo4j|couchdb|couchbase|memcached|nats|pulsar|vitess|mssql|db|database|qdrant|weaviate|milvus|chroma|ceph|rook|longhorn|solr|druid|pinot|questdb|yugabyte|tidb|cnpg|patroni|supabase)([^a-z]|$)`)
}}

// helmDataUninstall says why s uninstalls the Helm release of a data store outside a
// development or local cluster, "" when it does not.
func helmDataUninstall(s *Segment) string {
	if len(s.Args) < 3 || baseName(s.Args[0]) != "helm" {
		return ""
	}
	pos := positionals(s.Args[1:])
	if len(pos) < 2 || (pos[0] != "uninstall" && pos[0] != "delete" && pos[0] != "del" && pos[0] != "un") {
		return ""
	}
	if hasArg(s.Args, "--dry-run") || r16DevTarget.get().MatchString(strings.Join(s.Args[1:], " ")) {
		return ""
	}
	for _, r := range pos[1:] {
		if dataStoreRelease.get().MatchString(r) {
			return "helm " + pos[0] + " " + r + " removes a data store's release: its database pods and services, and with them the data the application relies on"
		}
	}
	return ""
}
