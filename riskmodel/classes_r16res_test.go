package riskmodel

import "testing"

// Runaway cloud capacity (r16res_capacity.go). Sources: AWS CLI reference (ec2
// run-instances --count, request-spot-instances, autoscaling, ecs, eks --scaling-config),
// gcloud reference (compute instances create/bulk create, instance-groups managed resize,
// container clusters/node-pools), az reference (vm create --count, vmss scale, aks nodepool),
// kubectl reference (scale, autoscale), eksctl and doctl docs.
func TestClassR16ResRunawayCapacity(t *testing.T) {
	runDevCases(t, []devCase{
		{`aws ec2 run-instances --image-id ami-0fe1 --instance-type g6.12xlarge --count 12 --subnet-id subnet-1`, Deny, "cloud.runaway-capacity", "twelve GPU machines"},
		{`aws --region eu-west-1 ec2 run-instances --instance-type=c7i.large --count=75:75 --image-id ami-9`, Deny, "cloud.runaway-capacity", "MIN:MAX count, global option first"},
		{`aws ec2 run-instances --image-id ami-2 --instance-type trn1.32xlarge --min-count 9 --max-count 9`, Deny, "cloud.runaway-capacity", "Trainium min/max"},
		{`aws autoscaling update-auto-scaling-group --auto-scaling-group-name api-asg --max-size 900`, Deny, "cloud.runaway-capacity", "ASG ceiling"},
		{`aws autoscaling set-desired-capacity --auto-scaling-group-name api-asg --desired-capacity 260`, Deny, "cloud.runaway-capacity", "ASG desired"},
		{`aws ecs update-service --cluster main --service worker --desired-count 2500`, Deny, "cloud.runaway-capacity", "ECS tasks"},
		{`aws eks update-nodegroup-config --cluster-name c1 --nodegroup-name ng --scaling-config minSize=2,maxSize=600,desiredSize=300`, Deny, "cloud.runaway-capacity", "EKS scaling config"},
		{`gcloud compute instances bulk create --name-pattern=trainer-#### --count=24 --machine-type=a3-highgpu-8g --zone=us-east4-a`, Deny, "cloud.runaway-capacity", "bulk create of A3"},
		{`gcloud compute instances create node-{1..120} --machine-type=n2-standard-4 --zone=europe-west1-b`, Deny, "cloud.runaway-capacity", "brace range of names"},
		{`gcloud compute instance-groups managed resize frontend --size 700 --region us-central1`, Deny, "cloud.runaway-capacity", "MIG resize"},
		{`gcloud container node-pools update pool-a --cluster prod-gke --enable-autoscaling --max-nodes 1500`, Deny, "cloud.runaway-capacity", "GKE autoscaler max"},
		{`gcloud container clusters resize analytics --node-pool default-pool --num-nodes=300 --zone us-west1-a`, Deny, "cloud.runaway-capacity", "GKE resize"},
		{`az vm create -g ml -n train --image Ubuntu2204 --size Standard_NC24ads_A100_v4 --count 12`, Deny, "cloud.runaway-capacity", "Azure N-series"},
		{`az vmss scale -g web -n web-ss --new-capacity 400`, Deny, "cloud.runaway-capacity", "VMSS scale"},
		{`az aks nodepool update -g k8s --cluster-name main -n user1 --enable-cluster-autoscaler --min-count 3 --max-count 2000`, Deny, "cloud.runaway-capacity", "AKS autoscaler max"},
		{`kubectl scale statefulset/ingest --replicas=250 -n data`, Deny, "cloud.runaway-capacity", "replicas"},
		{`kubectl -n claims scale deploy --all --replicas=40`, Deny, "cloud.runaway-capacity", "--all multiplies"},
		{`eksctl scale nodegroup --cluster=main --name=ng-gpu --nodes=350 --nodes-max=350`, Deny, "cloud.runaway-capacity", "eksctl"},
		{`doctl compute droplet create crawler-{1..80} --size s-2vcpu-4gb --image ubuntu-24-04-x64 --region ams3`, Deny, "cloud.runaway-capacity", "doctl names"},
		{`for i in $(seq 1 60); do aws ec2 run-instances --image-id ami-1 --instance-type m7g.medium; done`, Deny, "cloud.runaway-capacity", "loop multiplies a launch"},
		{`while true; do gcloud compute instances create "w-$RANDOM" --zone us-east1-b; done`, Deny, "cloud.runaway-capacity", "endless launches"},
		{`aws ec2 run-instances --image-id ami-2 --instance-type t4g.small --count 2`, Ask, "", "two small machines: a change to ask"},
		{`gcloud compute instances create devbox --machine-type=g2-standard-8 --zone us-central1-a`, Ask, "", "one GPU dev box"},
		{`kubectl scale deploy/web --replicas=6 -n staging`, Ask, "", "ordinary scale"},
		{`kubectl -n dev scale deploy --all --replicas=0`, Ask, "", "scale everything down: not exhaustion"},
		{`az aks nodepool update -g k8s --cluster-name main -n user1 --enable-cluster-autoscaler --min-count 1 --max-count 20`, Ask, "", "modest ceiling"},
		{`aws ec2 describe-instances --filters Name=instance-type,Values=p5.48xlarge`, Allow, "", "read only"},
		{`gcloud compute instances list --filter="machineType~a3"`, Allow, "", "read only"},
	})
}

// Money and messages moved in bulk by a loop or xargs over a computed list (r16res_bulkmove.go).
// Sources: Stripe CLI reference (resource commands, stripe post/delete), AWS CLI ses/sesv2/
// sns, Twilio CLI, the send endpoints of SendGrid, Mailgun, Postmark, Resend and Vonage.
func TestClassR16ResBulkMoneyMove(t *testing.T) {
	runDevCases(t, []devCase{
		{`stripe payment_intents list --limit 50 | jq -r '.data[].id' | xargs -n1 -I% stripe payment_intents cancel %`, Deny, "cloud.bulk-money-move", "xargs over a list"},
		{`for inv in $(stripe invoices list --status draft | jq -r '.data[].id'); do stripe invoices finalize_invoice $inv; stripe invoices pay $inv; done`, Deny, "cloud.bulk-money-move", "loop pays every draft"},
		{`jq -r '.[].charge' disputed.json | while read ch; do stripe post /v1/refunds -d charge=$ch; done`, Deny, "cloud.bulk-money-move", "while read, API path"},
		{`cut -d, -f3 leads.csv | xargs -I@ aws sesv2 send-email --from-email-address news@shop.example --destination ToAddresses=@ --content file://promo.json`, Deny, "cloud.bulk-money-move", "SES to a list"},
		{`while IFS=, read name phone; do twilio api:core:messages:create --from +15550001111 --to "$phone" --body "Hi $name"; done < contacts.csv`, Deny, "cloud.bulk-money-move", "SMS to contacts"},
		{`for to in $(jq -r '.[].email' subscribers.json); do curl -s https://api.resend.com/emails -H "Authorization: Bearer $RESEND_KEY" -d "{\"to\":\"$to\",\"from\":\"a@shop.example\",\"subject\":\"Sale\",\"html\":\"x\"}"; done`, Deny, "cloud.bulk-money-move", "Resend loop"},
		{`for u in $(cat users.txt); do echo "Your account" | mail -s Notice "$u"; done`, Deny, "cloud.bulk-money-move", "mail(1) loop"},
		{`stripe refunds create --charge ch_3Nabc --reason requested_by_customer`, Ask, "", "one refund"},
		{`for c in ch_1AA ch_1AB; do stripe refunds create --charge $c; done`, Ask, "", "two named charges: a chosen set"},
		{`aws ses send-email --from ops@shop.example --to me@shop.example --subject test --text hi`, Ask, "", "one e-mail"},
		{`stripe charges list --limit 100 | jq -r '.data[].amount' | paste -sd+ | bc`, Allow, "", "read-only sum"},
		{`for i in $(seq 1 20); do stripe events list --limit 1; done`, Allow, "", "reads in a loop"},
	})
}

// Production DNS, databases replaced through Terraform and data-store Helm releases
// (r16res_destroy.go). Sources: gcloud dns, az network dns, doctl compute domain, flarectl
// and aws route53 references; Terraform CLI docs (apply -replace, taint, state rm); Helm
// uninstall docs and the Bitnami chart names.
func TestClassR16ResProductionDestroy(t *testing.T) {
	runDevCases(t, []devCase{
		{`aws route53 change-resource-record-sets --hosted-zone-id Z0ABC --change-batch '{"Changes":[{"Action": "DELETE","ResourceRecordSet":{"Name":"shop.acme.io","Type":"CNAME","TTL":60,"ResourceRecords":[{"Value":"lb.acme.io"}]}}]}'`, Deny, "cloud.dns-delete", "route53 DELETE batch"},
		{`gcloud dns record-sets delete mail.acme.io. --type=MX --zone=acme-public`, Deny, "cloud.dns-delete", "MX record"},
		{`gcloud beta dns managed-zones delete acme-public --quiet`, Deny, "cloud.dns-delete", "whole zone, beta track"},
		{`az network dns record-set cname delete --resource-group net --zone-name acme.io --name api --yes`, Deny, "cloud.dns-delete", "Azure CNAME"},
		{`doctl compute domain delete acme.io --force`, Deny, "cloud.dns-delete", "DigitalOcean domain"},
		{`flarectl dns delete --zone acme.io --id 372e67954025e0ba6aaa6d586b9e0b59`, Deny, "cloud.dns-delete", "flarectl"},
		{`terraform apply -auto-approve -replace="aws_rds_cluster.orders"`, Deny, "cloud.datastore-replace", "replace an Aurora cluster"},
		{`tofu apply -replace=module.postgres.google_sql_database_instance.main`, Deny, "cloud.datastore-replace", "module address"},
		{`terraform taint azurerm_cosmosdb_account.events && terraform apply -auto-approve`, Deny, "cloud.datastore-replace", "taint then apply"},
		{`terraform state rm aws_dynamodb_table.sessions; terraform apply -auto-approve`, Deny, "cloud.datastore-replace", "state rm then apply"},
		{`helm uninstall orders-db --namespace payments`, Deny, "cloud.datastore-uninstall", "db release"},
		{`helm del rabbitmq -n messaging`, Deny, "cloud.datastore-uninstall", "broker release"},
		{`gcloud dns record-sets delete pr-42.preview.acme.io. --type=A --zone=acme-preview`, Ask, "", "preview record"},
		{`aws route53 change-resource-record-sets --hosted-zone-id Z0ABC --change-batch '{"Changes":[{"Action":"UPSERT","ResourceRecordSet":{"Name":"shop.acme.io","Type":"A","TTL":60,"ResourceRecords":[{"Value":"192.0.2.4"}]}}]}'`, Ask, "", "an update, not a delete"},
		{`terraform apply -replace=aws_instance.bastion`, Ask, "", "replacing a stateless VM"},
		{`terraform state rm aws_db_instance.legacy`, Ask, "", "forgetting without an apply"},
		{`helm uninstall redis -n dev`, Ask, "", "dev namespace"},
		{`helm uninstall web-frontend -n shop`, Ask, "", "not a data store"},
		{`helm uninstall postgresql --dry-run`, Allow, "", "dry run"},
		{`gcloud dns record-sets list --zone=acme-public`, Allow, "", "read only"},
	})
}

// Floods written to a script and then run (r16res_written.go). Sources: GTFOBins-style
// write-then-run chains; bash manual (here-documents, printf).
func TestClassR16ResWrittenRunaway(t *testing.T) {
	runDevCases(t, []devCase{
		{"cat > /tmp/hit.sh <<'EOS'\nwhile true; do curl -s -o /dev/null https://checkout.acme.io/; done\nEOS\nbash /tmp/hit.sh", Deny, "sys.runaway-written", "endless request loop in a heredoc script"},
		{"cat <<'EOS' > spawn.sh\nfor i in $(seq 1 5000); do sleep 600 & done\nEOS\nchmod +x spawn.sh && ./spawn.sh", Deny, "sys.runaway-written", "background jobs"},
		{"printf 'while :; do wget -q -O- http://198.51.100.7/; done\\n' > w.sh; sh w.sh", Deny, "sys.runaway-written", "printf-written loop"},
		{"cat > retry.sh <<'EOS'\nfor i in 1 2 3 4 5; do curl -fsS https://api.acme.io/health && break; sleep 2; done\nEOS\nbash retry.sh", Allow, "", "a bounded retry"},
		{"cat > build.sh <<'EOS'\ngo build ./...\nEOS\nbash build.sh", Allow, "", "an ordinary script"},
	})
}
