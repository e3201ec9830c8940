import { ApiError } from '../core/errors.js';
import type { Registry } from '../sources/registry.js';
import { loadDataset, type Entity } from './dataset.js';
import { EntityResolver } from './resolver.js';

const ENTITY_ID = /^svc-ent:[a-z]+\.[a-z0-9-]+$/;

/** The entity graph: resolution, and translation of an entity into each data type's q. */
export class EntityGraph {
  readonly resolver: EntityResolver;

  constructor(
    private readonly registry: Registry,
    private readonly baseUrl: string,
    entities: Entity[] = loadDataset().entities,
  ) {
    this.resolver = new EntityResolver(entities);
  }

  /** The entity, or a 400 for a malformed id and a 404 for an unknown one. */
  entity(id: string, field = 'id'): Entity {
    if (!ENTITY_ID.test(id))
      throw new ApiError('validation_failed', `${field} must look like svc-ent:<class>.<slug>`, {
        field,
        rule: 'pattern',
        example: 'svc-ent:eq.aapl',
      });
    const entity = this.resolver.get(id);
    if (!entity) throw new ApiError('not_found', `no entity ${id}`, { field });
    return entity;
  }

  /** Derived from the descriptors: every type whose entityQ yields a q for this entity. */
  supportedTypes(entity: Entity): { type: string; q: string }[] {
    return this.registry.all().flatMap((d) => {
      const q = d.entityQ?.(entity);
      return q ? [{ type: d.type, q }] : [];
    });
  }

  exampleCalls(entity: Entity): string[] {
    return this.supportedTypes(entity).map(
      ({ type }) => `${this.baseUrl}/api/data/preview?type=${type}&entity=${encodeURIComponent(entity.id)}`,
    );
  }

  /** `entity=` → the type's q; a type the entity does not support is a 400 naming the ones it does. */
  toQ(type: string, entityId: string, q: string | undefined): string {
    if (q !== undefined && q !== '') throw new ApiError('bad_request', 'pass either q or entity, not both', { field: 'entity' });
    const entity = this.entity(entityId, 'entity');
    const supported = this.supportedTypes(entity);
    const hit = supported.find((s) => s.type === type);
    if (!hit) {
      throw new ApiError('entity_unsupported', `${entity.id} cannot be used with ${type}`, {
        field: 'entity',
        supported_types: supported.map((s) => s.type),
      });
    }
    return hit.q;
  }
}
