"""Provider emit modules: each shapes a compiled tool for its provider's APIs (EMITTERS, by target name)."""

from toolcast.providers import anthropic, gemini, openai

# target name -> the module that emits its tool shapes (APIS, DEFAULT_API, NATIVE_SHAPES, emit,
# schema_of, request_tools).
EMITTERS = {"openai": openai, "anthropic": anthropic, "gemini": gemini, "vertex": gemini}
# target name -> the provider whose rule versions it compiles under.
PROVIDER_OF = {"openai": "openai", "anthropic": "anthropic", "gemini": "gemini", "vertex": "vertex"}
