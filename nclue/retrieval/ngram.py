"""Hashed character n-gram vectors with cosine similarity: the stand-in's second
representation family (a "dense-like" backbone; fastText-style subwords).

Each token ``w`` contributes the character ``n``-grams of ``<w>`` (``<`` and
``>`` mark the word boundary).  A gram goes to bucket ``crc32(gram) mod B``.
A document's vector has, per bucket, weight ``(1 + ln c) * idf_b`` where ``c``
is the bucket's count in the document and ``idf_b = ln(1 + N / df_b)``; it is
then L2-normalised.  A query's vector has weight ``c_b * idf_b`` (``c_b``: the
bucket's gram count over the query's distinct tokens), L2-normalised, and the
score is the cosine.  The bucket
count ``B`` is the model's size: the same family at ``B = 2**10`` (small) and
``B = 2**16`` (large) is the stand-in's same-family scale contrast; ``n = 3``
versus ``n = 4`` gives two different backbones.

Dot products are accumulated bucket by bucket in sorted bucket order, so the
result is the same on every interpreter.
"""

import math
import zlib
from array import array
from collections import Counter

DENSE_LIMIT = 4096


def grams(token, n):
    padded = "<%s>" % token
    if len(padded) <= n:
        return [padded]
    return [padded[i:i + n] for i in range(len(padded) - n + 1)]


class GramCounts:
    """Per-document counts of character n-grams (shared by all bucket sizes of one ``n``)."""

    def __init__(self, doc_index, n):
        self.n = n
        cache = {}
        self.docs = []
        for bag in doc_index.bags:
            counts = Counter()
            for term, tf in bag.items():
                g = cache.get(term)
                if g is None:
                    g = cache[term] = Counter(grams(term, n))
                for gram, c in g.items():
                    counts[gram] += c * tf
            self.docs.append(counts)


class HashedNgramModel:
    def __init__(self, gram_counts, buckets):
        self.n = gram_counts.n
        self.buckets = buckets
        self._bucket_of = {}
        self._tokens = {}
        n_docs = len(gram_counts.docs)
        doc_buckets = []
        df = Counter()
        for counts in gram_counts.docs:
            b = Counter()
            for gram, c in counts.items():
                b[self.bucket(gram)] += c
            doc_buckets.append(b)
            df.update(b.keys())
        self.n_docs = n_docs
        self.idf = {k: math.log(1.0 + n_docs / v) for k, v in df.items()}
        self.dense = buckets <= DENSE_LIMIT
        # a sparse column is two arrays (documents, weights): 12 bytes a non-zero instead of a tuple and a
        # float object (about 90), the largest part of the build's memory (docs/stand-in.md#build-memory)
        columns = {}
        for d, b in enumerate(doc_buckets):
            weights = [(k, (1.0 + math.log(c)) * self.idf[k]) for k, c in sorted(b.items())]
            norm = 0.0
            for _, w in weights:
                norm += w * w
            norm = math.sqrt(norm) or 1.0
            for k, w in weights:
                column = columns.get(k)
                if column is None:
                    column = columns[k] = (array("i"), array("d"))
                column[0].append(d)
                column[1].append(w / norm)
        if self.dense:
            self.columns = {}
            for k, (docs, ws) in columns.items():
                col = array("d", bytes(8 * n_docs))
                for d, w in zip(docs, ws):
                    col[d] = w
                self.columns[k] = col
        else:
            self.columns = columns

    def bucket(self, gram):
        b = self._bucket_of.get(gram)
        if b is None:
            b = self._bucket_of[gram] = zlib.crc32(gram.encode("utf-8")) % self.buckets
        return b

    def _token_vector(self, token):
        """``s_tok[d] = sum_b cnt_tok(b) * idf_b * d_b`` over the token's buckets (dense, cached)."""
        vec = self._tokens.get(token)
        if vec is None:
            counts = Counter(self.bucket(g) for g in grams(token, self.n))
            vec = array("d", bytes(8 * self.n_docs))      # C doubles: the arithmetic of Python floats
            for k, c in sorted(counts.items()):
                idf = self.idf.get(k)
                if idf is None:
                    continue
                weight = c * idf
                if self.dense:
                    vec = array("d", [v + weight * x for v, x in zip(vec, self.columns[k])])
                else:
                    docs, ws = self.columns[k]
                    for d, w in zip(docs, ws):
                        vec[d] += weight * w
            self._tokens[token] = vec
        return vec

    def query_norm(self, tokens):
        counts = Counter()
        for tok in sorted(set(tokens)):
            for gram in grams(tok, self.n):
                counts[self.bucket(gram)] += 1
        norm = 0.0
        for k, c in sorted(counts.items()):
            if k in self.idf:
                w = c * self.idf[k]
                norm += w * w
        return math.sqrt(norm)

    def scores(self, tokens):
        """``{doc: cosine}`` for documents with a positive score.

        The query vector has weight ``c_b * idf_b`` per bucket (``c_b`` its gram
        count over the query's distinct tokens), so the dot product is the sum
        of per-token vectors, which are computed once per token and cached.
        """
        toks = sorted(set(tokens))
        norm = self.query_norm(toks)
        if not norm:
            return {}
        acc = [0.0] * self.n_docs
        for tok in toks:
            acc = [a + v for a, v in zip(acc, self._token_vector(tok))]
        inv = 1.0 / norm
        return {d: a * inv for d, a in enumerate(acc) if a > 0.0}
