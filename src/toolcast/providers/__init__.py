"""Provider emit modules: each shapes a compiled tool for its provider's APIs (EMITTERS, by target name)."""

from toolcast.providers import openai

# target name -> the module that emits its tool shapes (APIS, emit).
EMITTERS = {"openai": openai}
