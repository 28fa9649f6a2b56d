package n8nschema

// The node types the analysis and the rules name, and the kinds of node
// they ask about. What n8n's descriptions say (polling, webhooks, default
// operations) is in the generated table (nodes.go); these are the types
// whose runtime behaviour stormcheck models by hand.
const (
	TypeSet             = "n8n-nodes-base.set"
	TypeIf              = "n8n-nodes-base.if"
	TypeSwitch          = "n8n-nodes-base.switch"
	TypeFilter          = "n8n-nodes-base.filter"
	TypeCode            = "n8n-nodes-base.code"
	TypeFunction        = "n8n-nodes-base.function"
	TypeFunctionItem    = "n8n-nodes-base.functionItem"
	TypeWait            = "n8n-nodes-base.wait"
	TypeSplitInBatches  = "n8n-nodes-base.splitInBatches"
	TypeStopAndError    = "n8n-nodes-base.stopAndError"
	TypeNoOp            = "n8n-nodes-base.noOp"
	TypeExecutionData   = "n8n-nodes-base.executionData"
	TypeExecuteWorkflow = "n8n-nodes-base.executeWorkflow"
	TypeHTTPRequest     = "n8n-nodes-base.httpRequest"
	TypeN8n             = "n8n-nodes-base.n8n"
	TypeOpenAILegacy    = "n8n-nodes-base.openAi"

	TypeWebhook                = "n8n-nodes-base.webhook"
	TypeTelegramTrigger        = "n8n-nodes-base.telegramTrigger"
	TypeRespondToWebhook       = "n8n-nodes-base.respondToWebhook"
	TypeFormTrigger            = "n8n-nodes-base.formTrigger"
	TypeScheduleTrigger        = "n8n-nodes-base.scheduleTrigger"
	TypeCron                   = "n8n-nodes-base.cron"
	TypeInterval               = "n8n-nodes-base.interval"
	TypeManualTrigger          = "n8n-nodes-base.manualTrigger"
	TypeStart                  = "n8n-nodes-base.start" // gone from n8n 2.x; old exports hold it
	TypeErrorTrigger           = "n8n-nodes-base.errorTrigger"
	TypeExecuteWorkflowTrigger = "n8n-nodes-base.executeWorkflowTrigger"
	TypeN8nTrigger             = "n8n-nodes-base.n8nTrigger"
	TypeWorkflowTrigger        = "n8n-nodes-base.workflowTrigger"
	TypeEmailReadImap          = "n8n-nodes-base.emailReadImap"
	TypeLocalFileTrigger       = "n8n-nodes-base.localFileTrigger"

	TypeAgent              = "@n8n/n8n-nodes-langchain.agent"
	TypeAgentTool          = "@n8n/n8n-nodes-langchain.agentTool"
	TypeChainSummarization = "@n8n/n8n-nodes-langchain.chainSummarization"
	TypeTextClassifier     = "@n8n/n8n-nodes-langchain.textClassifier"
	TypeSentimentAnalysis  = "@n8n/n8n-nodes-langchain.sentimentAnalysis"
	TypeGuardrails         = "@n8n/n8n-nodes-langchain.guardrails"
	TypeOpenAI             = "@n8n/n8n-nodes-langchain.openAi"
	TypeOpenAIAssistant    = "@n8n/n8n-nodes-langchain.openAiAssistant"
	TypeToolWorkflow       = "@n8n/n8n-nodes-langchain.toolWorkflow"
	TypeToolHTTPRequest    = "@n8n/n8n-nodes-langchain.toolHttpRequest"
	TypeToolCode           = "@n8n/n8n-nodes-langchain.toolCode"
	TypeAICode             = "@n8n/n8n-nodes-langchain.code"
	TypeChatTrigger        = "@n8n/n8n-nodes-langchain.chatTrigger"
	TypeManualChatTrigger  = "@n8n/n8n-nodes-langchain.manualChatTrigger"
	TypeMCPTrigger         = "@n8n/n8n-nodes-langchain.mcpTrigger"
)

// IsBranch reports a node that routes items by conditions: If, Switch,
// Filter.
func IsBranch(typ string) bool { return typ == TypeIf || typ == TypeSwitch || typ == TypeFilter }

// IsCode reports a node that runs user JavaScript or Python in the main
// flow: Code, and the older Function and Function Item.
func IsCode(typ string) bool {
	return typ == TypeCode || typ == TypeFunction || typ == TypeFunctionItem
}

// IsAICode reports the LangChain Code node and the Code tool.
func IsAICode(typ string) bool { return typ == TypeAICode || typ == TypeToolCode }

// IsAgent reports the AI Agent node and its tool variant.
func IsAgent(typ string) bool { return typ == TypeAgent || typ == TypeAgentTool }

// IsHTTPRequest reports the HTTP Request node, its tool variant and the
// LangChain HTTP Request tool: nodes whose URL and method are parameters.
func IsHTTPRequest(typ string) bool {
	return typ == TypeHTTPRequest || typ == TypeHTTPRequest+"Tool" || typ == TypeToolHTTPRequest
}

// IsScheduleTrigger reports a trigger that starts executions on a clock:
// Schedule Trigger, and the older Cron and Interval.
func IsScheduleTrigger(typ string) bool {
	return typ == TypeScheduleTrigger || typ == TypeCron || typ == TypeInterval
}

// IsInternalTrigger reports a trigger that n8n itself or a person in the
// editor starts: a manual run, a manual chat, a caller workflow, a failed
// execution, n8n's own events.
func IsInternalTrigger(typ string) bool {
	switch typ {
	case TypeManualTrigger, TypeStart, TypeManualChatTrigger, TypeExecuteWorkflowTrigger,
		TypeErrorTrigger, TypeN8nTrigger, TypeWorkflowTrigger:
		return true
	}
	return false
}
