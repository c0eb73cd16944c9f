/** Output shapes of GitLab objects (a fixed subset of each API object). */
import { Closed, Nullable, type Static, Type } from '../../../catalog/schema.js';

type Raw = Record<string, any>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const User = Closed({ id: Nullable(Type.Integer()), username: Type.String() });
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const user = (v: Raw | null | undefined) => (v && typeof v.username === 'string' ? { id: int(v.id), username: v.username } : null);

export const Project = Closed({
  id: Type.Integer(),
  path_with_namespace: Type.String(),
  name: Type.String(),
  default_branch: Nullable(Type.String()),
  visibility: Nullable(Type.String()),
  web_url: Nullable(Type.String()),
});
export function projectOf(raw: Raw): Static<typeof Project> {
  return {
    id: raw.id,
    path_with_namespace: String(raw.path_with_namespace ?? ''),
    name: String(raw.name ?? ''),
    default_branch: str(raw.default_branch),
    visibility: str(raw.visibility),
    web_url: str(raw.web_url),
  };
}

export const Issue = Closed({
  iid: Type.Integer(),
  id: Type.Integer(),
  title: Type.String(),
  state: Type.String(),
  description: Nullable(Type.String()),
  web_url: Nullable(Type.String()),
  author: Nullable(User),
  assignees: Type.Array(User),
  labels: Type.Array(Type.String()),
  user_notes_count: Nullable(Type.Integer()),
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_at: Nullable(Type.String()),
});
export function issueOf(raw: Raw): Static<typeof Issue> {
  return {
    iid: raw.iid,
    id: raw.id,
    title: String(raw.title ?? ''),
    state: String(raw.state ?? ''),
    description: str(raw.description),
    web_url: str(raw.web_url),
    author: user(raw.author),
    assignees: (list(raw.assignees) as Raw[]).map(user).filter((u): u is NonNullable<typeof u> => u !== null),
    labels: list(raw.labels).map((l) => (typeof l === 'string' ? l : String((l as Raw).name ?? ''))),
    user_notes_count: int(raw.user_notes_count),
    created_at: String(raw.created_at ?? ''),
    updated_at: String(raw.updated_at ?? ''),
    closed_at: str(raw.closed_at),
  };
}

export const Note = Closed({
  id: Type.Integer(),
  author: Nullable(User),
  body: Nullable(Type.String()),
  system: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Nullable(Type.String()),
});
export function noteOf(raw: Raw): Static<typeof Note> {
  return {
    id: raw.id,
    author: user(raw.author),
    body: str(raw.body),
    system: raw.system === true,
    created_at: String(raw.created_at ?? ''),
    updated_at: str(raw.updated_at),
  };
}

export const Release = Closed({
  tag_name: Type.String(),
  name: Nullable(Type.String()),
  description: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
  released_at: Nullable(Type.String()),
  author: Nullable(User),
  upcoming_release: Type.Boolean(),
  web_url: Nullable(Type.String()),
  assets: Closed({ count: Type.Integer(), links: Type.Array(Closed({ name: Type.String(), url: Type.String() })) }),
});
export function releaseOf(raw: Raw): Static<typeof Release> {
  const links = (list(raw.assets?.links) as Raw[]).map((l) => ({ name: String(l.name ?? ''), url: String(l.url ?? '') }));
  return {
    tag_name: String(raw.tag_name ?? ''),
    name: str(raw.name),
    description: str(raw.description),
    created_at: str(raw.created_at),
    released_at: str(raw.released_at),
    author: user(raw.author),
    upcoming_release: raw.upcoming_release === true,
    web_url: str(raw._links?.self),
    assets: { count: int(raw.assets?.count) ?? links.length, links },
  };
}

export const Pipeline = Closed({
  id: Type.Integer(),
  iid: Nullable(Type.Integer()),
  status: Type.String(),
  ref: Nullable(Type.String()),
  sha: Nullable(Type.String()),
  source: Nullable(Type.String()),
  web_url: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
  updated_at: Nullable(Type.String()),
});
export type PipelineOut = Static<typeof Pipeline>;
export function pipelineOf(raw: Raw): PipelineOut {
  return {
    id: raw.id,
    iid: int(raw.iid),
    status: String(raw.status ?? ''),
    ref: str(raw.ref),
    sha: str(raw.sha),
    source: str(raw.source),
    web_url: str(raw.web_url),
    created_at: str(raw.created_at),
    updated_at: str(raw.updated_at),
  };
}

export const Job = Closed({
  id: Type.Integer(),
  name: Type.String(),
  stage: Nullable(Type.String()),
  status: Type.String(),
  allow_failure: Type.Boolean(),
  duration: Nullable(Type.Number()),
  web_url: Nullable(Type.String()),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
});
export function jobOf(raw: Raw): Static<typeof Job> {
  return {
    id: raw.id,
    name: String(raw.name ?? ''),
    stage: str(raw.stage),
    status: String(raw.status ?? ''),
    allow_failure: raw.allow_failure === true,
    duration: typeof raw.duration === 'number' ? raw.duration : null,
    web_url: str(raw.web_url),
    started_at: str(raw.started_at),
    finished_at: str(raw.finished_at),
  };
}
