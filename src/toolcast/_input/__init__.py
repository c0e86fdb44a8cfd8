"""Reading JSON and YAML text as JSON values, with the places of what is refused."""
