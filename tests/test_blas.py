"""grok_lib.blas: numpy's OpenBLAS runs one thread inside one_thread() and what it ran before after it."""

from grok_lib import blas


def test_one_thread_inside_and_the_count_before_after():
    before = blas.threads()
    assert before is not None, "numpy's OpenBLAS was not found (another BLAS: grok_lib.blas limits nothing)"
    with blas.one_thread():
        assert blas.threads() == 1
    assert blas.threads() == before
