"""What every app of Smoki shares and no app owns: the refusals a write can
answer with (``errors``), rate limits in the shared cache (``limits``) and
reading numbers from a request (``forms``). It imports no app."""
