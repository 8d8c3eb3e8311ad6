package riskmodel

import "testing"

// Destructive calls against local development resources are routine, not production changes:
// an AWS CLI call whose endpoint is this machine (LocalStack, MinIO, DynamoDB Local) acts on an
// emulator, and a framework's reset task with no other environment named acts on the project's
// development database. The same calls aimed at the cloud, at another environment or at a
// database elsewhere keep their deny; switching the framework's production guard off is asked.
func TestClassLocalDevResources(t *testing.T) {
	runClassCases(t, []classCase{
		// Cloud calls against a local emulator.
		{src: `aws --endpoint-url http://localhost:4566 s3api delete-bucket --bucket fixtures`, max: Medium, rule: "cloud.local-cluster", source: "LocalStack docs: aws --endpoint-url"},
		{src: `aws --endpoint-url=http://127.0.0.1:4566 --region us-east-1 kinesis delete-stream --stream-name events`, max: Medium, rule: "cloud.local-cluster", source: "LocalStack, = form"},
		{src: `AWS_ENDPOINT_URL_S3=http://localhost:9000 aws s3 rm s3://uploads --recursive`, max: Medium, rule: "cloud.local-cluster", source: "AWS CLI service-specific endpoint variable, MinIO"},
		{src: `aws dynamodb delete-table --table-name Orders --endpoint-url http://localhost:8000`, max: Medium, rule: "cloud.local-cluster", source: "DynamoDB Local docs"},
		{src: `awslocal cloudformation delete-stack --stack-name app`, max: Medium, rule: "cloud.local-cluster", source: "LocalStack awslocal wrapper"},
		{src: `aws s3api delete-bucket --bucket fixtures`, min: Critical, source: "the real cloud"},
		{src: `aws --endpoint-url https://storage.internal.example.com s3 rb s3://fixtures --force`, min: Critical, source: "a remote endpoint"},
		{src: `aws --endpoint-url http://localhost:4566 --profile production s3 rb s3://fixtures --force`, min: Critical, source: "a production word keeps the cloud's judgement"},
		// Framework resets of the development database.
		{src: `bin/rails db:drop db:create db:migrate`, max: Medium, rule: "db.local-reset", source: "Rails guides: db:drop"},
		{src: `RAILS_ENV=test bundle exec rake db:reset`, max: Medium, rule: "db.local-reset", source: "the test database"},
		{src: `mix ecto.drop && mix ecto.setup`, max: Medium, rule: "db.local-reset", source: "Ecto mix tasks"},
		{src: `php artisan migrate:refresh --seed`, max: Medium, rule: "db.local-reset", source: "Laravel migrations docs"},
		{src: `yarn prisma migrate reset --force --skip-seed`, max: Medium, rule: "db.local-reset", source: "Prisma CLI reference"},
		{src: `DATABASE_URL=mysql://root@127.0.0.1:3306/app npx prisma migrate reset --force`, max: Medium, rule: "db.local-reset", source: "a loopback DATABASE_URL"},
		{src: `./manage.py flush --noinput`, max: Medium, rule: "db.local-reset", source: "Django flush"},
		// The same tasks elsewhere.
		{src: `RAILS_ENV=production bin/rails db:drop`, min: Critical, rule: "db.destructive", source: "production"},
		{src: `MIX_ENV=staging mix ecto.reset`, min: Critical, rule: "db.destructive", source: "another environment"},
		{src: `php artisan migrate:fresh --env=prod`, min: Critical, rule: "db.destructive", source: "--env"},
		{src: `DATABASE_URL=postgres://app@10.0.4.12:5432/app npx prisma migrate reset --force`, min: Critical, rule: "db.destructive", source: "a database on another host"},
		{src: `npx prisma migrate reset --force --url $DATABASE_URL`, min: Critical, rule: "db.destructive", source: "a URL guardian cannot see"},
		{src: `DJANGO_SETTINGS_MODULE=shop.settings.prod_eu python manage.py flush --noinput`, min: Critical, rule: "db.destructive", source: "a production settings module"},
		{src: `php artisan db:wipe --force`, min: High, max: High, rule: "db.write-prod", source: "--force skips Laravel's production confirmation"},
		{src: `DISABLE_DATABASE_ENVIRONMENT_CHECK=1 bin/rails db:reset`, min: High, max: High, rule: "db.write-prod", source: "Rails' protected-environment check off"},
	})
}
