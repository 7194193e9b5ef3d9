/**
 * One kind = one definition: identity, schema, strategy hooks and subresources. Routes, discovery,
 * storage keys, watch and decoding all follow from it. Definitions are factories of the API names,
 * because groups, annotation keys and secret types derive from the API domain.
 */
import type { UserInfo } from '../machinery/user-info.js';
import type { ApiNames } from '../machinery/api-names.js';
import type { FieldError } from '../machinery/field-errors.js';
import type { NameValidator } from '../machinery/name-validation.js';
import type { ListerSource } from '../machinery/lister.js';
import type { ServiceAccountTokenIssuer } from '../machinery/service-account-tokens.js';
import type { KubeObject, StructSchema } from '../schema/index.js';
import type { ServiceAllocators } from './allocator/types.js';
import type { TableDefinition } from './table.js';
import type { GenericStore } from './generic-store.js';

export type { AllocationResult, ServiceAllocators, ValuePool } from './allocator/types.js';

/** What a strategy hook may know about the request. */
export interface StrategyContext {
  readonly names: ApiNames;
  /** The request's namespace ('' for cluster-scoped resources). */
  readonly namespace: string;
  /** The subresource written ('' for the main resource). */
  readonly subresource: string;
  readonly now: Date;
  /** Who makes the request, when authentication has said (a CertificateSigningRequest records it). */
  readonly user?: UserInfo;
  /**
   * The group and version the request was made in, when it came through the API: a kind served in
   * several versions may validate by it (an Event created as events/v1 obeys stricter rules than
   * one created as core/v1, as in Kubernetes). Absent for in-process writes.
   */
  readonly requestGroupVersion?: { readonly group: string; readonly version: string };
}

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface Strategy<T extends KubeObject = KubeObject> {
  /** The name rule for `metadata.name` (and `generateName` as a prefix). */
  readonly nameValidator: NameValidator;
  /**
   * Turns a `generateName` prefix into a candidate name (Kubernetes' NameGenerator); the default
   * appends five random characters. A create retries with a new candidate when one is taken.
   */
  generateName?(prefix: string): string;
  /** PUT to a missing object creates it. */
  readonly allowCreateOnUpdate?: boolean;
  /** PUT without `metadata.resourceVersion` overwrites (default true). */
  readonly allowUnconditionalUpdate?: boolean;
  /**
   * A create through the main resource keeps the status it was sent, although the kind has a
   * `/status` subresource (a kubelet registers its Node with status, as Kubernetes allows).
   */
  readonly statusOnCreate?: boolean;
  /** `metadata.generation` starts at 1 and grows when anything but metadata and status changes. */
  readonly trackGeneration?: boolean;
  /** DELETE answers with the deleted object rather than a Status. */
  readonly returnDeletedObject?: boolean;
  /** Fills defaults; runs on every decoded object of this kind, whatever the verb. Mutates. */
  defaults?(obj: T, ctx: StrategyContext): void;
  /** Clears fields a create may not set (usually status). Mutates `obj`. */
  prepareForCreate?(obj: T, ctx: StrategyContext): void;
  /** Carries over fields an update may not change (usually status). Mutates `obj`, never `old`. */
  prepareForUpdate?(obj: T, old: T, ctx: StrategyContext): void;
  /** Rules for every write of the main resource, create and update alike. */
  validate?(obj: T, ctx: StrategyContext): FieldError[];
  /**
   * Rules for a create only, beside validate: for kinds whose update tolerates what an existing
   * object already holds (Kubernetes relaxes a rule on update when the stored object breaks it).
   */
  validateCreate?(obj: T, ctx: StrategyContext): FieldError[];
  /** Rules for an update only, beside validate; may compare with the stored object. */
  validateUpdate?(obj: T, old: T, ctx: StrategyContext): FieldError[];
  /**
   * Normalizes a valid object before it is stored (Endpoints are repacked), after validation and
   * before validating admission, as Kubernetes' Canonicalize. Main-resource writes only. Mutates.
   */
  canonicalize?(obj: T): void;
  /** Non-fatal advice returned as `Warning` headers. */
  warnings?(obj: T, old: T | undefined, ctx: StrategyContext): string[];
  /** Kind-specific field-selector attributes, beside `metadata.name` and `metadata.namespace`. */
  selectableFields?(obj: T): Record<string, string>;
  /** Names of the kind-specific fields selectableFields returns, for the error naming what is supported. */
  readonly selectableFieldNames?: readonly string[];
  /** Mutates an object being marked for deletion (a namespace turns Terminating). */
  prepareForDelete?(obj: T, ctx: StrategyContext): void;
  /** Side effects of a create, after validation and before the write (allocations). */
  beginCreate?(obj: T, ctx: WriteContext): Promise<WriteTransaction | undefined>;
  /** Side effects of an update, after validation and before the write. */
  beginUpdate?(obj: T, old: T, ctx: WriteContext): Promise<WriteTransaction | undefined>;
  /** Releases what the object held, once it is deleted from the store. */
  afterDelete?(obj: T, ctx: StrategyContext): Promise<void>;
  /** Reasons beside metadata.finalizers for a deleted object to stay (a namespace's spec.finalizers). */
  holdsDeletion?(obj: T): boolean;
  /**
   * When set, a delete of an object already marked and still held by holdsDeletion is refused with
   * a Conflict carrying this text (a namespace being emptied), instead of answering the object.
   */
  readonly deletePendingConflict?: string;
}

/** A subresource that reads and writes a part of the parent object (status, finalize, ...). */
export interface PartialSubresource<T extends KubeObject = KubeObject> {
  readonly kind: 'partial';
  readonly verbs: readonly Verb[];
  /**
   * Builds the object to store from the one sent to the subresource and the current one:
   * a status write keeps everything but status from `current`. Mutates neither argument.
   */
  merge(sent: T, current: T): T;
  prepareForUpdate?(obj: T, old: T, ctx: StrategyContext): void;
  validateUpdate?(obj: T, old: T, ctx: StrategyContext): FieldError[];
}

/**
 * A subresource that shows the parent as another kind and writes back through it: `/scale` answers
 * an autoscaling/v1 Scale. Writes go through the parent's main strategy (so a replica change bumps
 * generation), with the subresource named in admission.
 */
export interface ViewSubresource<T extends KubeObject = KubeObject> {
  readonly kind: 'view';
  readonly verbs: readonly Verb[];
  /** The group, version and kind of the view, e.g. autoscaling/v1 Scale. */
  readonly view: { readonly group: string; readonly version: string; readonly kind: string };
  readonly schema: StructSchema;
  /** The view of the parent. Pure. */
  toView(parent: T, ctx: StrategyContext): KubeObject;
  /** The parent with the view's changes applied. Pure: returns a new object. */
  fromView(view: KubeObject, parent: T, ctx: StrategyContext): T;
  /** Validation of the view as sent (422 with the view's kind). */
  validateView?(view: KubeObject, ctx: StrategyContext): FieldError[];
  /**
   * The view's field that stands for a parent field (Scale `spec.replicas` for a Deployment's
   * `spec.replicas`): writes through the view, apply included, are field-managed on the view and
   * recorded on the parent in the parent's terms (apply/view-fields.ts). Without it a write is
   * recorded as the change it makes to the parent, and apply is not offered.
   */
  readonly ownedField?: { readonly view: readonly string[]; readonly parent: readonly string[] };
  /** The view's Table columns (Scale: Desired, Available); the default table without one. */
  readonly table?: TableDefinition;
}

/**
 * A subresource that takes a create of another kind and acts on the parent with it (pods/binding
 * takes a Binding and assigns the pod to a node), answering a Success Status. The change is
 * written as the parent, bypassing the parent's update rules, as Kubernetes writes it straight to
 * storage.
 */
export interface ActionSubresource<T extends KubeObject = KubeObject> {
  readonly kind: 'action';
  readonly verbs: readonly Verb[];
  /** The group, version and kind of the body, e.g. core/v1 Binding. */
  readonly body: { readonly group: string; readonly version: string; readonly kind: string };
  readonly schema: StructSchema;
  /** Validation of the body as sent (422 with the body's kind). */
  validateBody?(body: KubeObject, ctx: StrategyContext): FieldError[];
  /**
   * The parent with the action applied. Pure: returns a new object. Throws a StatusError (usually a
   * Conflict) when the parent cannot take the action.
   */
  apply(body: KubeObject, parent: T, ctx: StrategyContext): T;
}

export type SubresourceDefinition<T extends KubeObject = KubeObject> = PartialSubresource<T> | ViewSubresource<T> | ActionSubresource<T> | CreateSubresource;

/** What a create subresource may know and do beside its input. */
export interface CreateSubresourceContext extends StrategyContext {
  readonly signal: AbortSignal;
  /** Adds a `Warning` header to the answer. */
  warn(message: string): void;
  /** The request asked for a dry run (`?dryRun=All`). */
  readonly dryRun: boolean;
}

/**
 * A subresource that takes a request object of another kind and answers it, storing nothing of the
 * parent (Kubernetes' named creaters: `serviceaccounts/token`). POST only; 201 with the answer.
 */
export interface CreateSubresource {
  readonly kind: 'create';
  readonly verbs: readonly Verb[];
  /** The group, version and kind of the request and answer, e.g. authentication/v1 TokenRequest. */
  readonly request: { readonly group: string; readonly version: string; readonly kind: string };
  /** Older versions of the request's group whose body is accepted too (pods/eviction takes policy/v1beta1). */
  readonly alsoAcceptedVersions?: readonly string[];
  readonly schema: StructSchema;
  /** The answer is a `Status` (pods/eviction's Success), not an object of the request's kind. */
  readonly answersStatus?: boolean;
  /**
   * The answer to `request` (decoded with `schema`, apiVersion and kind already checked) for the
   * parent `name`. Throws a StatusError for a request that cannot be answered. Mutates nothing.
   */
  create(name: string, request: KubeObject, ctx: CreateSubresourceContext): Promise<KubeObject>;
}

/**
 * Side effects that must happen with a write and be undone if it fails (Service IP and port
 * allocation). `finish(true)` after the write is stored, `finish(false)` when it is not.
 */
export interface WriteTransaction {
  finish(committed: boolean): Promise<void>;
}

export interface WriteContext extends StrategyContext {
  readonly dryRun: boolean;
}

/** An older (or newer) served version of a kind, stored as the hub version. */
export interface VersionConversion {
  /** The served object → the hub (storage) version. Pure. */
  toHub(obj: KubeObject): KubeObject;
  /** The hub object → the served version. Pure. */
  fromHub(obj: KubeObject): KubeObject;
}

export interface Deprecation {
  /** Release the version was deprecated in, e.g. `1.23`. */
  readonly deprecatedIn: string;
  /** Release it stops being served in, e.g. `1.26`; absent when none is planned (v1 ComponentStatus). */
  readonly removedIn?: string;
  /** The version to use instead, `group/version`. */
  readonly replacement?: string;
  /**
   * The whole warning text, when the version says it (a CRD version's deprecationWarning); the
   * other fields are then only what metrics report.
   */
  readonly warning?: string;
}

/** What a review kind's create may know: the strategy context and the request's abort signal. */
export interface ReviewContext extends StrategyContext {
  readonly signal: AbortSignal;
  /** The request asked for a dry run: a review that acts on other objects (legacy bindings) changes nothing. */
  readonly dryRun?: boolean;
}

/** The answer authentication gives about a bearer token (a TokenReview's status). */
export interface TokenReviewAnswer {
  authenticated: boolean;
  user?: UserInfo;
  audiences?: string[];
  error?: string;
}

/**
 * Reviews bearer tokens as the server's own authentication would (the union of its methods).
 * Never throws for a bad token (that is `authenticated: false` with an `error`); throws a
 * StatusError only when the answer cannot be trusted (an authenticator ignored the audiences).
 */
export interface TokenReviewer {
  review(spec: { token: string; audiences?: readonly string[] }, signal: AbortSignal): Promise<TokenReviewAnswer>;
}

/** An action asked about in an access review (a SubjectAccessReview's resource or non-resource attributes). */
export interface AccessReviewAttributes {
  readonly resourceAttributes?: {
    readonly namespace?: string;
    readonly verb?: string;
    readonly group?: string;
    readonly version?: string;
    readonly resource?: string;
    readonly subresource?: string;
    readonly name?: string;
  };
  readonly nonResourceAttributes?: { readonly path?: string; readonly verb?: string };
}

/** The authorizer's answer about one action (a SubjectAccessReview's status). */
export interface AccessReviewAnswer {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** What a user may do in a namespace, as far as the authorizers can list it (a SelfSubjectRulesReview's status). */
export interface RulesReviewAnswer {
  resourceRules: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }[];
  nonResourceRules: { verbs: string[]; nonResourceURLs?: string[] }[];
  incomplete: boolean;
  evaluationError?: string;
}

/**
 * Answers access reviews as the server's own authorizer decides (every mode, system:masters
 * included). Never throws for a policy problem (that is the answer's evaluationError).
 */
export interface AccessReviewer {
  review(user: UserInfo, asked: AccessReviewAttributes, signal: AbortSignal): Promise<AccessReviewAnswer>;
  rules(user: UserInfo, namespace: string): RulesReviewAnswer;
}

/** Services the composition root hands to kinds that need more than pure rules. */
export interface KindEnvironment {
  readonly names: ApiNames;
  /** Authentication's answer about a token, for TokenReview; absent where definitions are only listed. */
  readonly tokenReviewer?: TokenReviewer;
  /** The authorizer's answers, for the access reviews; absent where definitions are only listed. */
  readonly accessReviewer?: AccessReviewer;
  /** Cluster IP and node port pools for Services; absent where definitions are only listed, not served. */
  readonly serviceAllocators?: ServiceAllocators;
  /** Listers of stored objects, for kinds whose subresources read other objects (TokenRequest). */
  readonly listers?: ListerSource;
  /** Resolves when the storage backend answers, rejects with why not (ComponentStatus etcd-0). */
  readonly storageHealth?: () => Promise<void>;
  /** The store of a stored resource by group and resource, for subresources that write other objects (pods/eviction). */
  readonly stores?: StoreLookup;
  /** Signs service-account tokens; absent when no signing key is configured (no `serviceaccounts/token`). */
  readonly serviceAccountTokens?: ServiceAccountTokenIssuer;
}

/** Finds the store (the storage version's) of a resource; undefined for one not defined. */
export type StoreLookup = (group: string, resource: string) => GenericStore | undefined;

export interface ResourceDefinition<T extends KubeObject = KubeObject> {
  /** The group as served, already qualified with the API domain; '' is the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The lowercase plural used in URLs. */
  readonly resource: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly verbs?: readonly Verb[];
  readonly schema: StructSchema<T>;
  readonly strategy: Strategy<T>;
  readonly subresources?: Readonly<Record<string, SubresourceDefinition<T>>>;
  /**
   * A minimal valid object without name or namespace, for the generic suite and examples. Kinds
   * whose content must match their name get the name the suite uses (see fixtureName).
   */
  readonly fixture?: (name?: string) => Record<string, unknown>;
  /**
   * For kinds whose name is bound to their content (a CRD is `<plural>.<group>`): the name the
   * generic suites give the object they chose `name` for; the fixture is then made for it.
   */
  readonly fixtureName?: (name: string) => string;
  /** Set on a served version that is not the storage version: how to convert to and from the hub. */
  readonly conversion?: VersionConversion;
  /**
   * Set when the hub this version converts to is served under another group: events.<domain>/v1
   * Event is stored as core/v1 Event, one object seen in two groups, as Kubernetes stores it.
   */
  readonly storedAs?: { readonly group: string; readonly resource: string };
  readonly deprecation?: Deprecation;
  /**
   * The Table representation (`kubectl get` columns); the default Name and Created At without one.
   * Rows are made from the stored object, so every served version of the kind shares the table.
   */
  readonly table?: TableDefinition<T>;
  /**
   * A kind that is never stored (TokenReview, SubjectAccessReview): a create decodes what was sent,
   * passes it here and answers 201 with what this returns; nothing is written, and `verbs` should
   * be `['create']`. Throws a StatusError for a request it refuses (a missing field: 400). An answer
   * of kind `Status` (legacy bindings' Success) is sent as a Status.
   */
  readonly review?: (obj: T, ctx: ReviewContext) => Promise<T>;
  /**
   * A kind computed at each read, never stored (ComponentStatus): get and list answer from what
   * this returns; `verbs` should be `['get', 'list']`. Must not throw for an unhealthy component.
   */
  readonly computed?: (ctx: { readonly signal: AbortSignal }) => Promise<T[]>;
}

export type ResourceFactory = (names: ApiNames, env: KindEnvironment) => ResourceDefinition;

/** Typed identity helper: keeps the object type of a definition while erasing it for the registry. */
export function defineResource<T extends KubeObject>(factory: (names: ApiNames, env: KindEnvironment) => ResourceDefinition<T>): ResourceFactory {
  return factory as unknown as ResourceFactory;
}

/**
 * Another served version of a kind: the hub's definition (strategy, subresources, storage) with
 * this version's schema, conversion and deprecation. The hub must be registered too.
 *
 * A version may live in another group than its hub (`group`): it is then served there and stored
 * with the hub's objects (`storedAs`). Field selectors of such a version name its own fields
 * (`selectableFieldNames`); the hub's selectableFields must compute those names as well, since the
 * stored objects are the hub's.
 */
export function defineVersion(
  hub: ResourceFactory,
  version: (names: ApiNames, env: KindEnvironment) => {
    version: string;
    /** The group this version is served in, when not the hub's. */
    group?: string;
    schema: StructSchema;
    conversion: VersionConversion;
    deprecation?: Deprecation;
    fixture?: () => Record<string, unknown>;
    selectableFieldNames?: readonly string[];
    shortNames?: readonly string[];
  },
): ResourceFactory {
  return (names, env) => {
    const base = hub(names, env);
    const v = version(names, env);
    const otherGroup = v.group !== undefined && v.group !== base.group;
    return {
      ...base,
      version: v.version,
      schema: v.schema as StructSchema<KubeObject>,
      conversion: v.conversion,
      ...(otherGroup ? { group: v.group as string, storedAs: { group: base.group, resource: base.resource } } : {}),
      ...(v.selectableFieldNames ? { strategy: { ...base.strategy, selectableFieldNames: v.selectableFieldNames } } : {}),
      ...(v.shortNames ? { shortNames: v.shortNames } : {}),
      ...(v.deprecation ? { deprecation: v.deprecation } : {}),
      ...(v.fixture ? { fixture: v.fixture } : {}),
    };
  };
}

export function listKindOf(def: Pick<ResourceDefinition, 'kind'>): string {
  return `${def.kind}List`;
}

// The rest of a kind's authoring surface: kinds (src/apis) import the registry through this file only.
export { statusSubresource } from './subresources.js';
export { age, ageColumn, column, defineTable, nameColumn, type TableContext, type TableDefinition, type TableRowCondition } from './table.js';
export { accessModesText, containerCells, formatLabelSelector, formatLabels, listWithMore, selectorText } from './table-format.js';
