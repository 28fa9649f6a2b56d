package n8nschema

import "testing"

func TestBilledService(t *testing.T) {
	cases := []struct {
		js   string
		want string
	}{
		{`{"name":"a","type":"@apify/n8n-nodes-apify.apify","parameters":{"operation":"Run actor and get dataset"}}`, "Apify"},
		{`{"name":"a","type":"@apify/n8n-nodes-apify.apify","parameters":{"operation":"Scrape single URL"}}`, "Apify"},
		{`{"name":"a","type":"@apify/n8n-nodes-apify.apify","parameters":{"resource":"Datasets","operation":"Get items"}}`, ""},
		{`{"name":"a","type":"@mendable/n8n-nodes-firecrawl.firecrawl","parameters":{"operation":"scrape"}}`, "Firecrawl"},
		{`{"name":"a","type":"@mendable/n8n-nodes-firecrawl.firecrawl","parameters":{"operation":"getCrawlStatus"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/acts/x~y/runs"}}`, "Apify"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"=https://api.apify.com/v2/acts/x~y/run-sync-get-dataset-items?token=t"}}`, "Apify"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.apify.com/v2/acts/x~y/runs/last"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.apify.com/v2/datasets/d/items"}}`, ""},
		// An existing run's abort, metamorph or resurrect starts no billed work.
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/acts/x~y/runs/r1/abort"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/actor-tasks/t/runs/last/metamorph"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/actor-tasks/t/runs?token=t"}}`, "Apify"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.apify.com/v2/acts/x~y/runs/"}}`, "Apify"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.firecrawl.dev/v1/scrape"}}`, "Firecrawl"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.firecrawl.dev/v1/crawl/abc"}}`, ""},
		// Speech and voice APIs beside the models (billedEndpoints): a POST
		// that makes speech or a transcript; a read of voices is no use.
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"=https://api.elevenlabs.io/v1/text-to-speech/{{ $json.voice }}"}}`, "ElevenLabs"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.elevenlabs.io/v1/speech-to-text"}}`, "ElevenLabs"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://api.elevenlabs.io/v1/voices"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.openai.com/v1/audio/transcriptions"}}`, "OpenAI"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.openai.com/v1/audio/speech"}}`, "OpenAI"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://api.openai.com/v1/files"}}`, ""},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://speech.googleapis.com/v1/speech:recognize?key={{ $env.KEY }}"}}`, "Google Cloud Speech-to-Text"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://speech.googleapis.com/v2/projects/p/locations/global/recognizers/_:recognize"}}`, "Google Cloud Speech-to-Text"},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","parameters":{"method":"POST","url":"https://texttospeech.googleapis.com/v1/text:synthesize"}}`, "Google Cloud Text-to-Speech"},
		{`{"name":"a","type":"@elevenlabs/n8n-nodes-elevenlabs.elevenLabs","parameters":{"resource":"speech","text":"hi"}}`, "ElevenLabs"},
		{`{"name":"a","type":"@elevenlabs/n8n-nodes-elevenlabs.elevenLabs","parameters":{"resource":"speech","operation":"speechToText"}}`, "ElevenLabs"},
		{`{"name":"a","type":"@elevenlabs/n8n-nodes-elevenlabs.elevenLabs","parameters":{"resource":"voice","operation":"getAll"}}`, ""},
	}
	for _, c := range cases {
		got, _ := BilledService(node(t, c.js))
		if got != c.want {
			t.Errorf("BilledService(%s) = %q, want %q", c.js, got, c.want)
		}
	}
}

func TestSendsAccount(t *testing.T) {
	const url = `"url":"https://api.apify.com/v2/acts/x~y/run-sync-get-dataset-items`
	cases := []struct {
		params string
		want   bool
	}{
		{url + `"`, false},
		{url + `","authentication":"none"`, false},
		{url + `","authentication":"predefinedCredentialType","nodeCredentialType":"apifyApi"`, true},
		{url + `","authentication":"genericCredentialType","genericAuthType":"httpHeaderAuth"`, true},
		{url + `?token=YOUR_APIFY_TOKEN"`, false},
		{url + `?token=APIFY_TOKEN"`, false},
		{url + `?token=apify_api_9fQ2xLmR4tWcZ8vN1bK7"`, true},
		{`"url":"=https://api.apify.com/v2/acts/x~y/runs?token={{ $env.APIFY_TOKEN }}"`, true},
		{url + `","queryParameters":{"parameters":[{"name":"token","value":"<your token>"}]}`, false},
		{url + `","queryParameters":{"parameters":[{"name":"token","value":"={{ $vars.apify }}"}]}`, true},
		{url + `","headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer YOUR_API_KEY"}]}`, false},
		{url + `","headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer apify_api_9fQ2xLmR4tWcZ8vN1bK7"}]}`, true},
		{url + `","headerParameters":{"parameters":[{"name":"Accept","value":"application/json"}]}`, false},
		{url + `","jsonHeaders":"{\"Authorization\": \"Bearer k\"}"`, true},
		// Each speech API's own key names.
		{`"url":"https://api.elevenlabs.io/v1/text-to-speech/v","headerParameters":{"parameters":[{"name":"xi-api-key","value":"={{ $env.XI }}"}]}`, true},
		{`"url":"https://api.elevenlabs.io/v1/text-to-speech/v","headerParameters":{"parameters":[{"name":"xi-api-key","value":"YOUR_API_KEY"}]}`, false},
		{`"url":"https://api.elevenlabs.io/v1/text-to-speech/v","headerParameters":{"parameters":[{"name":"Authorization","value":"Bearer k"}]}`, false},
		{`"url":"https://speech.googleapis.com/v1/speech:recognize?key=AIzaSyA1b2C3d4E5f6G7h8"`, true},
		{`"url":"https://speech.googleapis.com/v1/speech:recognize"`, false},
	}
	for _, c := range cases {
		js := `{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST",` + c.params + `}}`
		if got := SendsAccount(node(t, js)); got != c.want {
			t.Errorf("SendsAccount(%s) = %v, want %v", c.params, got, c.want)
		}
	}
}
