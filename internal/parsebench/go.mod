module github.com/stormcheck/stormcheck/internal/parsebench

go 1.26

require (
	github.com/buger/jsonparser v1.6.1
	github.com/go-json-experiment/json v1.27.2
	github.com/stormcheck/stormcheck v0.0.0-00010101000000-000000000000
	github.com/tidwall/gjson v1.20.2
	github.com/valyala/fastjson v1.6.10
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
)

replace github.com/stormcheck/stormcheck => ../..
