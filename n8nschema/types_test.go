package n8nschema

import "testing"

// TestTypeConstantsAreN8nTypes: every type the analysis names is one n8n
// 2.8.4 describes, so a typo or a renamed node fails here.
func TestTypeConstantsAreN8nTypes(t *testing.T) {
	for _, typ := range []string{
		TypeSet, TypeIf, TypeSwitch, TypeFilter, TypeCode, TypeFunction, TypeFunctionItem, TypeWait,
		TypeSplitInBatches, TypeStopAndError, TypeNoOp, TypeExecutionData, TypeExecuteWorkflow, TypeHTTPRequest,
		TypeN8n, TypeOpenAILegacy, TypeWebhook, TypeRespondToWebhook, TypeFormTrigger, TypeScheduleTrigger, TypeCron, TypeInterval,
		TypeManualTrigger, TypeErrorTrigger, TypeExecuteWorkflowTrigger, TypeN8nTrigger,
		TypeWorkflowTrigger, TypeEmailReadImap, TypeLocalFileTrigger, TypeAgent, TypeAgentTool,
		TypeChainSummarization, TypeTextClassifier, TypeSentimentAnalysis, TypeGuardrails, TypeOpenAI, TypeToolWorkflow, TypeToolHTTPRequest,
		TypeToolCode, TypeAICode, TypeChatTrigger, TypeManualChatTrigger, TypeMCPTrigger,
	} {
		if _, ok := DescribeNode(typ, 0); !ok {
			t.Errorf("%s is not a node type of n8n %s", typ, N8nVersion)
		}
	}
	// The Start node is gone from n8n; old exports still hold it.
	if _, ok := DescribeNode(TypeStart, 0); ok {
		t.Errorf("%s is described by n8n %s: drop its legacy note in types.go", TypeStart, N8nVersion)
	}
}

func TestTypeKinds(t *testing.T) {
	for _, c := range []struct {
		name string
		is   func(string) bool
		yes  []string
		no   []string
	}{
		{"IsBranch", IsBranch, []string{TypeIf, TypeSwitch, TypeFilter}, []string{TypeSet, TypeCode, TypeWait}},
		{"IsCode", IsCode, []string{TypeCode, TypeFunction, TypeFunctionItem}, []string{TypeAICode, TypeToolCode, TypeSet}},
		{"IsAICode", IsAICode, []string{TypeAICode, TypeToolCode}, []string{TypeCode}},
		{"IsAgent", IsAgent, []string{TypeAgent, TypeAgentTool}, []string{TypeChainSummarization}},
		{"IsHTTPRequest", IsHTTPRequest, []string{TypeHTTPRequest, TypeHTTPRequest + "Tool", TypeToolHTTPRequest}, []string{TypeWebhook}},
		{"IsScheduleTrigger", IsScheduleTrigger, []string{TypeScheduleTrigger, TypeCron, TypeInterval}, []string{TypeWebhook, "n8n-nodes-base.gmailTrigger"}},
		{"IsInternalTrigger", IsInternalTrigger, []string{TypeManualTrigger, TypeStart, TypeManualChatTrigger, TypeExecuteWorkflowTrigger,
			TypeErrorTrigger, TypeN8nTrigger, TypeWorkflowTrigger}, []string{TypeWebhook, TypeChatTrigger, TypeScheduleTrigger}},
	} {
		for _, typ := range c.yes {
			if !c.is(typ) {
				t.Errorf("%s(%s) = false", c.name, typ)
			}
		}
		for _, typ := range c.no {
			if c.is(typ) {
				t.Errorf("%s(%s) = true", c.name, typ)
			}
		}
	}
}

// TestUnshipped: a type of n8n's own packages that the release does not
// ship makes a workflow n8n cannot build; the types 2.0 removed ship in 1.x;
// a community package's types load when it is installed.
func TestUnshipped(t *testing.T) {
	v1, v2 := Version{1, 123, 81}, Version{2, 41, 1}
	for _, c := range []struct {
		typ    string
		v1, v2 bool // unshipped in 1.123.81, in 2.41.1
	}{
		{TypeStart, false, true},
		{"n8n-nodes-base.spontit", false, true},
		{"n8n-nodes-base.httpTrigger", true, true},
		{"n8n-nodes-base.mongodb", true, true},
		{"@n8n/n8n-nodes-langchain.lmChatHf", true, true},
		{TypeManualTrigger, false, false},
		{"n8n-nodes-base.mongoDb", false, false},
		{"n8n-nodes-base.gmailTool", false, false}, // usableAsTool: loaded again as <type>Tool
		{"n8n-nodes-acme.thing", false, false},
		{"@acme/n8n-nodes-x.thing", false, false},
		{"httpRequest", true, true}, // no package: the loader has none of that name
		{"", false, false},          // no type: analyze.Graph.Unloadable decides
	} {
		if got := UnshippedIn(c.typ, v1); got != c.v1 {
			t.Errorf("UnshippedIn(%s, %s) = %v, want %v", c.typ, v1, got, c.v1)
		}
		if got := UnshippedIn(c.typ, v2); got != c.v2 {
			t.Errorf("UnshippedIn(%s, %s) = %v, want %v", c.typ, v2, got, c.v2)
		}
	}
	for typ, want := range map[string]string{
		"n8n-nodes-base.mongodb": "n8n-nodes-base.mongoDb",
		"n8n-nodes-base.openai":  "n8n-nodes-base.openAi",
		"n8n-nodes-base.openAI":  "n8n-nodes-base.openAi",
		"n8n-nodes-base.mongoDb": "",
		"n8n-nodes-base.crm":     "",
	} {
		if got, ok := ShippedSpelling(typ); ok != (want != "") || ok && got != want {
			t.Errorf("ShippedSpelling(%s) = %q, %v; want %q", typ, got, ok, want)
		}
	}
}
