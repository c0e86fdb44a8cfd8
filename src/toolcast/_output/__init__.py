"""Output files: toolcast's JSON layout, the files a run writes and the steps that write them safely."""
