"""The interpreter: one walk over a parameters schema under a rule version (see Walk)."""
