/** Output shapes of GitHub objects (a fixed subset of each API object, so results stay small). */
import { Closed, Nullable, type Static, Type } from '../../../catalog/schema.js';

const Login = Closed({ login: Type.String() });

export const Issue = Closed({
  number: Type.Integer(),
  title: Type.String(),
  state: Type.String(),
  body: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  user: Nullable(Login),
  assignees: Type.Array(Login),
  labels: Type.Array(Closed({ name: Type.String() })),
  comments: Nullable(Type.Integer()),
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_at: Nullable(Type.String()),
  pull_request: Nullable(Closed({ html_url: Nullable(Type.String()) })),
});
export type IssueOut = Static<typeof Issue>;

type Raw = Record<string, any>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const login = (v: Raw | null | undefined) => (v && typeof v.login === 'string' ? { login: v.login } : null);

export function issueOf(raw: Raw): IssueOut {
  return {
    number: raw.number,
    title: String(raw.title ?? ''),
    state: String(raw.state ?? ''),
    body: str(raw.body),
    html_url: str(raw.html_url),
    user: login(raw.user),
    assignees: (list(raw.assignees) as Raw[]).map(login).filter((a): a is { login: string } => a !== null),
    labels: (list(raw.labels) as (Raw | string)[]).map((l) => ({ name: typeof l === 'string' ? l : String(l.name ?? '') })),
    comments: typeof raw.comments === 'number' ? raw.comments : null,
    created_at: String(raw.created_at ?? ''),
    updated_at: String(raw.updated_at ?? ''),
    closed_at: str(raw.closed_at),
    pull_request: raw.pull_request ? { html_url: str(raw.pull_request.html_url) } : null,
  };
}

export const Comment = Closed({
  id: Type.Integer(),
  user: Nullable(Login),
  body: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export function commentOf(raw: Raw): Static<typeof Comment> {
  return {
    id: raw.id,
    user: login(raw.user),
    body: str(raw.body),
    html_url: str(raw.html_url),
    created_at: String(raw.created_at ?? ''),
    updated_at: String(raw.updated_at ?? ''),
  };
}

export const Asset = Closed({
  id: Type.Integer(),
  name: Type.String(),
  size: Type.Integer(),
  content_type: Nullable(Type.String()),
  download_count: Type.Integer(),
  browser_download_url: Nullable(Type.String()),
});
export function assetOf(raw: Raw): Static<typeof Asset> {
  return {
    id: raw.id,
    name: String(raw.name ?? ''),
    size: Number(raw.size ?? 0),
    content_type: str(raw.content_type),
    download_count: Number(raw.download_count ?? 0),
    browser_download_url: str(raw.browser_download_url),
  };
}

export const Release = Closed({
  id: Type.Integer(),
  tag_name: Type.String(),
  name: Nullable(Type.String()),
  body: Nullable(Type.String()),
  draft: Type.Boolean(),
  prerelease: Type.Boolean(),
  target_commitish: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
  published_at: Nullable(Type.String()),
  author: Nullable(Login),
  assets: Type.Array(Asset),
});
export function releaseOf(raw: Raw): Static<typeof Release> {
  return {
    id: raw.id,
    tag_name: String(raw.tag_name ?? ''),
    name: str(raw.name),
    body: str(raw.body),
    draft: raw.draft === true,
    prerelease: raw.prerelease === true,
    target_commitish: str(raw.target_commitish),
    html_url: str(raw.html_url),
    created_at: str(raw.created_at),
    published_at: str(raw.published_at),
    author: login(raw.author),
    assets: (list(raw.assets) as Raw[]).map(assetOf),
  };
}

export const Workflow = Closed({
  id: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  state: Type.String(),
  html_url: Nullable(Type.String()),
});
export function workflowOf(raw: Raw): Static<typeof Workflow> {
  return {
    id: raw.id,
    name: String(raw.name ?? ''),
    path: String(raw.path ?? ''),
    state: String(raw.state ?? ''),
    html_url: str(raw.html_url),
  };
}

export const Run = Closed({
  id: Type.Integer(),
  name: Nullable(Type.String()),
  workflow_id: Nullable(Type.Integer()),
  head_branch: Nullable(Type.String()),
  head_sha: Nullable(Type.String()),
  event: Nullable(Type.String()),
  status: Nullable(Type.String()),
  conclusion: Nullable(Type.String()),
  run_number: Nullable(Type.Integer()),
  run_attempt: Nullable(Type.Integer()),
  html_url: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
  updated_at: Nullable(Type.String()),
});
export type RunOut = Static<typeof Run>;
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
export function runOf(raw: Raw): RunOut {
  return {
    id: raw.id,
    name: str(raw.name),
    workflow_id: int(raw.workflow_id),
    head_branch: str(raw.head_branch),
    head_sha: str(raw.head_sha),
    event: str(raw.event),
    status: str(raw.status),
    conclusion: str(raw.conclusion),
    run_number: int(raw.run_number),
    run_attempt: int(raw.run_attempt),
    html_url: str(raw.html_url),
    created_at: str(raw.created_at),
    updated_at: str(raw.updated_at),
  };
}

export const Job = Closed({
  id: Type.Integer(),
  name: Type.String(),
  status: Nullable(Type.String()),
  conclusion: Nullable(Type.String()),
  started_at: Nullable(Type.String()),
  completed_at: Nullable(Type.String()),
  html_url: Nullable(Type.String()),
  steps: Type.Array(
    Closed({ number: Type.Integer(), name: Type.String(), status: Nullable(Type.String()), conclusion: Nullable(Type.String()) }),
  ),
});
export function jobOf(raw: Raw): Static<typeof Job> {
  return {
    id: raw.id,
    name: String(raw.name ?? ''),
    status: str(raw.status),
    conclusion: str(raw.conclusion),
    started_at: str(raw.started_at),
    completed_at: str(raw.completed_at),
    html_url: str(raw.html_url),
    steps: (list(raw.steps) as Raw[]).map((s) => ({
      number: Number(s.number ?? 0),
      name: String(s.name ?? ''),
      status: str(s.status),
      conclusion: str(s.conclusion),
    })),
  };
}

export const Artifact = Closed({
  id: Type.Integer(),
  name: Type.String(),
  size_in_bytes: Type.Integer(),
  expired: Type.Boolean(),
  created_at: Nullable(Type.String()),
  expires_at: Nullable(Type.String()),
  archive_download_url: Nullable(Type.String()),
});
export function artifactOf(raw: Raw): Static<typeof Artifact> {
  return {
    id: raw.id,
    name: String(raw.name ?? ''),
    size_in_bytes: Number(raw.size_in_bytes ?? 0),
    expired: raw.expired === true,
    created_at: str(raw.created_at),
    expires_at: str(raw.expires_at),
    archive_download_url: str(raw.archive_download_url),
  };
}
