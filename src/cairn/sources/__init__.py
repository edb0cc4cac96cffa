"""Sources that are not plain files or web pages (YouTube transcripts)."""
