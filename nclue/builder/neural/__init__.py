"""The neural build step (optional; ``pip install .[neural]``; docs/realpage.md#neural): page embeddings of
RealPage's pages by one real sentence embedder, cached outside the repository.  Nothing here is imported by the
runtime; torch and sentence-transformers are imported only when an embedding is computed."""
