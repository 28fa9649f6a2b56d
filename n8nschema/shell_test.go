package n8nschema

import "testing"

// TestReadOnlyCommand: a command is a read only when every statement is a
// known read-only command and nothing is written to a file; anything else
// (a script, a computed command, a tool it does not know) may write.
func TestReadOnlyCommand(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{`df -h`, true},
		{`uptime && free -m`, true},
		{`df -h | awk '$NF=="/"{printf "%.2f", $5}'`, true},
		{`top -bn 1 | grep "Cpu(s)" | sed "s/.*, *\([0-9.]*\)%* id.*/\1/" | awk '{print 100 - $1}'`, true},
		{`sudo docker inspect "{{ $json['name'] }}" | jq -r '.[0].Config.Labels'`, true},
		{`systemctl status nginx; docker ps -a 2>&1; cat /var/log/syslog > /dev/null`, true},
		{`docker container ls --format '{{.Names}}'`, true},
		{`apt list --upgradable`, true},
		{"for s in api worker; do\n  cid=$(docker ps --filter \"label=svc=$s\" -q | head -n 1)\n  if [ -n \"$cid\" ]; then\n    docker logs --since 5m \"$cid\" 2>&1 | sed \"s/^/[${s}] /\"\n  fi\ndone", true},
		{`ls -la /srv # list the files`, true},
		{`rm -f /tmp/x`, false},
		{`df -h > /tmp/df.txt`, false},
		{`uptime >> log.txt`, false},
		{`sed -i 's/a/b/' /etc/hosts`, false},
		{`cat x | tee /tmp/y`, false},
		{`docker restart web`, false},
		{`docker compose up -d`, false},
		{`systemctl restart nginx`, false},
		{`apt-get update && apt-get upgrade -y`, false},
		{`find /tmp -name '*.log' -delete`, false},
		{`sort -o out.txt in.txt`, false},
		{`awk '{print > "out"}' in`, false},
		{`awk 'BEGIN{system("reboot")}'`, false},
		{"python3 - <<'PY'\nprint(open('/proc/uptime').read())\nPY", false},
		{`bash /home/u/scripts/rebuild.sh`, false},
		{`={{ $json.command }}`, false},
		{`echo "$(rm -rf /tmp/x)"`, false},
		{`date -s "2020-01-01"`, false},
		{`hostname newname`, false},
		{`git diff --output=patch.txt`, false},
		{`docker`, false},
		{`echo 'unterminated`, false},
		{``, false},
	} {
		if got := ReadOnlyCommand(c.cmd); got != c.want {
			t.Errorf("%q: read-only %v, want %v", c.cmd, got, c.want)
		}
	}
}

// TestSSHWrite: an SSH node's command decides whether it writes; its file
// upload writes whatever it sends.
func TestSSHWrite(t *testing.T) {
	for _, c := range []struct {
		params string
		want   bool
	}{
		{`{"command": "df -h"}`, false},
		{`{"resource": "command", "operation": "execute", "command": "uptime"}`, false},
		{`{"command": "docker restart web"}`, true},
		{`{"command": "={{ $json.cmd }}"}`, true},
		{`{"resource": "file", "path": "/etc/x"}`, true},
		{`{"resource": "file", "operation": "download", "path": "/etc/x"}`, false},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[{"name":"n","type":"n8n-nodes-base.ssh","typeVersion":1,"parameters":`+c.params+`}],"connections":{}}`)))
		if got, _ := WriteOp(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: writes %v, want %v", c.params, got, c.want)
		}
	}
}
