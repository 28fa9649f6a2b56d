package n8nschema

import "strings"

// noStatusCalls are the node types whose calls go over a driver or a
// protocol of their own, not HTTP: their errors carry no HTTP status
// (401, 403, 422), but the driver's own refusal (a login the server
// refuses, a statement it rejects). Read from the transports in
// n8n-nodes-base 2.41.1: Postgres, CrateDb, QuestDb and TimescaleDb use
// pg-promise (nodes/Postgres/transport/index.js), MySQL mysql2
// (nodes/MySql/v2/transport/index.js), Microsoft SQL mssql
// (nodes/Microsoft/Sql/GenericFunctions.js), Oracle oracledb
// (nodes/Oracle/Sql), MongoDB mongodb (nodes/MongoDb/GenericFunctions.js),
// Redis redis (nodes/Redis/utils.js), Snowflake snowflake-sdk
// (nodes/Snowflake/Snowflake.node.js); Send Email nodemailer over SMTP
// (nodes/EmailSend/v2), SSH node-ssh, FTP promise-ftp and
// ssh2-sftp-client (nodes/Ssh, nodes/Ftp). The message brokers too, with
// the dependencies n8n-nodes-base's package.json lists: Kafka kafkajs (v1,
// nodes/Kafka/v1/KafkaV1.node.js) and @confluentinc/kafka-javascript (v2,
// nodes/Kafka/v2/transport), RabbitMQ amqplib
// (nodes/RabbitMQ/GenericFunctions.js), AMQP rhea (nodes/Amqp), MQTT mqtt
// (nodes/MQTT/GenericFunctions.js); and the directory and mail servers:
// LDAP ldapts (nodes/Ldap/Helpers.js), IMAP @n8n/imap
// (nodes/EmailReadImap/v2).
var noStatusCalls = map[string]string{
	"postgres": "database", "mySql": "database", "microsoftSql": "database", "oracleDatabase": "database",
	"mongoDb": "database", "redis": "database", "snowflake": "database", "crateDb": "database",
	"questDb": "database", "timescaleDb": "database",
	"emailSend": "smtp", "ssh": "server", "ftp": "server", "ldap": "server", "emailReadImap": "server",
	"kafka": "broker", "rabbitmq": "broker", "amqp": "broker", "mqtt": "broker",
}

// NoHTTPStatus says what a node of type typ (or its Tool variant) calls
// when it is not HTTP: "database" for a database driver, "smtp" for a mail
// server, "server" for SSH, FTP, LDAP and IMAP, "broker" for a message
// broker; "" for an HTTP call.
func NoHTTPStatus(typ string) string {
	name, ok := strings.CutPrefix(strings.TrimSuffix(typ, "Tool"), nsBase)
	if !ok {
		return ""
	}
	return noStatusCalls[name]
}
