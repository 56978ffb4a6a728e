"""Request and response bodies of the HTTP API (they document themselves in the OpenAPI)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    model_validator,
)

from workbench.notes.service.bodies import Shape
from workbench.notes.text import text_problem

__all__ = [
    "MAX_CONTENT_CHARS",
    "MAX_EXTERNAL_ID_CHARS",
    "MAX_IMPORT_RECORDS",
    "MAX_TITLE_CHARS",
    "ErrorBody",
    "ErrorDetail",
    "HealthOut",
    "ImportRecord",
    "ImportRequest",
    "ImportResultOut",
    "NoteCreate",
    "NoteList",
    "NoteOut",
    "NoteReplace",
    "ReadyOut",
    "ReindexJobOut",
    "ScenarioDocument",
    "SearchHitOut",
    "SearchResponse",
    "ValidationOut",
]

MAX_TITLE_CHARS = 1_000
MAX_CONTENT_CHARS = 200_000
MAX_EXTERNAL_ID_CHARS = 512
MAX_IMPORT_RECORDS = 10_000


class ErrorDetail(BaseModel):
    """One problem of a request."""

    location: str = Field(description="Where: `query parameter 'q'`, `body.notes[3].title`, ...")
    message: str


class ErrorBody(BaseModel):
    """Every error response."""

    error: str = Field(description="Machine-readable code, e.g. `unauthorized`, `not_found`.")
    message: str = Field(description="What is wrong, naming the parameter or note.")
    details: list[ErrorDetail] | None = None


def _storable(value: str | None) -> str | None:
    problem = text_problem(value, "the text")
    if problem:
        raise ValueError(problem.replace("the text holds", "holds"))
    return value


Storable = Annotated[str, AfterValidator(_storable)]
"""A string the database can store (no NUL, no lone surrogate)."""

_TEXT_RULE = " No NUL character (U+0000) or lone surrogate (the database cannot store them)."


class _NoteText(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: Storable | None = Field(
        default=None, max_length=MAX_TITLE_CHARS, description="Up to 1,000 characters." + _TEXT_RULE
    )
    content: Storable | None = Field(
        default=None,
        max_length=MAX_CONTENT_CHARS,
        description="Up to 200,000 characters." + _TEXT_RULE,
    )

    @model_validator(mode="after")
    def _not_blank(self):
        if not ((self.title or "").strip() or (self.content or "").strip()):
            raise ValueError("a note needs a non-empty title or content")
        return self


class NoteCreate(_NoteText):
    """A new note of the caller."""

    external_id: Storable | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_EXTERNAL_ID_CHARS,
        description="Your own id, 1 to 512 characters; unique per owner (a second note with it "
        "answers 409)." + _TEXT_RULE,
    )


class NoteReplace(_NoteText):
    """New title and content of a note (both keys required; null clears one)."""

    title: Storable | None = Field(
        max_length=MAX_TITLE_CHARS, description="Up to 1,000 characters." + _TEXT_RULE
    )
    content: Storable | None = Field(
        max_length=MAX_CONTENT_CHARS, description="Up to 200,000 characters." + _TEXT_RULE
    )


class NoteOut(BaseModel):
    """A stored note."""

    id: str
    owner: str
    external_id: str | None
    title: str | None
    content: str | None
    created_at: datetime
    updated_at: datetime


class NoteList(BaseModel):
    """A page of the caller's notes, newest first."""

    notes: list[NoteOut]
    total: int
    limit: int
    offset: int
    next_offset: int | None = Field(
        default=None,
        description="Offset of the next page, or null after the last note. A page ends early "
        "(fewer than `limit` notes) once its titles and contents pass 4 MiB.",
    )


class ImportRecord(BaseModel):
    """One note of a bulk import (BEIR names `_id` and `text` are accepted)."""

    model_config = ConfigDict(extra="ignore")

    external_id: Storable | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_EXTERNAL_ID_CHARS,
        validation_alias=AliasChoices("external_id", "_id"),
    )
    title: Storable | None = Field(default=None, max_length=MAX_TITLE_CHARS)
    content: Storable | None = Field(
        default=None,
        max_length=MAX_CONTENT_CHARS,
        validation_alias=AliasChoices("content", "text"),
    )

    @model_validator(mode="after")
    def _not_blank(self):
        if not ((self.title or "").strip() or (self.content or "").strip()):
            raise ValueError("a note needs a non-empty title or content")
        return self


class ImportRequest(BaseModel):
    """Notes to import in one transaction, idempotently by external id."""

    body_shape: ClassVar[Shape] = Shape(items=MAX_IMPORT_RECORDS, containers=4, commas=16)

    notes: list[ImportRecord] = Field(min_length=1, max_length=MAX_IMPORT_RECORDS)


class ImportResultOut(BaseModel):
    """Counts of one import."""

    total: int
    inserted: int
    updated: int
    unchanged: int
    embedded: int


class SearchHitOut(BaseModel):
    """One search result."""

    id: str
    external_id: str | None
    title: str | None = Field(
        description="The note's title, HTML-escaped (`<` as `&lt;`, `&` as `&amp;`, quotes as "
        "`&quot;` / `&#x27;`): safe to insert into a page as HTML."
    )
    snippet: str = Field(
        description="A passage of the content, HTML-escaped like the title, with the matched "
        "words in `<b>` ... `</b>` tags, the only markup it holds (keyword and hybrid modes); in "
        "semantic mode the first 200 characters, escaped."
    )
    score: float = Field(description="RRF score (higher is better).")
    keyword_rank: int | None = Field(description="1-based rank in the keyword branch, or null.")
    semantic_rank: int | None = Field(description="1-based rank in the semantic branch, or null.")
    keyword_score: float | None = Field(
        default=None, description="BM25 score for the query (keyword match strength), or null."
    )
    semantic_similarity: float | None = Field(
        default=None,
        description="Cosine similarity of note and query embeddings (-1 to 1), or null.",
    )


class SearchResponse(BaseModel):
    """Search results, best first."""

    query: str
    took_ms: float = Field(description="Time spent answering [ms].")
    results: list[SearchHitOut]


class ScenarioDocument(RootModel[dict[str, Any]]):
    """A scenario document as it was solved, key order kept.

    The JSON format of docs/scenario-format.md; ``workbench schema`` prints its JSON Schema.
    """


class ReindexJobOut(BaseModel):
    """A background reindex and its progress."""

    job: str = Field(description="Job id; poll `GET /api/notes/reindex/{job}`.")
    state: Literal["running", "succeeded", "failed"]
    force: bool
    done: int = Field(description="Notes looked at so far.")
    total: int | None = Field(description="Notes to look at (known once the run started).")
    progress: float = Field(description="done / total, 0 to 1.")
    embedded: int | None = Field(description="Embeddings written (when finished).")
    skipped: int | None = Field(description="Notes whose embedding was current (when finished).")
    batches: int | None = Field(description="Transactions committed (when finished).")
    error: str | None = None
    started_at: datetime
    finished_at: datetime | None = None


class ValidationOut(BaseModel):
    """Result of validating every stored embedding."""

    ok: bool
    model: str
    total_notes: int
    total_embeddings: int
    counts: dict[str, int] = Field(description="Offending notes per check (0 when clean).")
    ids: dict[str, list[str]] = Field(description="Offending note ids per check (first 100).")


class HealthOut(BaseModel):
    """The process is up."""

    status: Literal["ok"]


class ReadyOut(BaseModel):
    """Whether the service can answer requests."""

    status: Literal["ready", "not_ready"]
    database: Literal["ok", "unreachable"]
    schema_version: str | None = None
    pending_migrations: list[str] = Field(default_factory=list)
    message: str | None = None
