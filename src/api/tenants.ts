import { Endpoints } from './endpoints';
import { TenantLimitsSchema } from './schemas';
import { APIResource } from './resource';
import type { RequestOptions } from './transport';

/** `GET /m2m/tenants/{tenant_id}/limits` (spec §4.7). */
export class Tenants extends APIResource {
  /**
   * The tenant's limits: a low-risk read that confirms key, tenant and reachability. The spec shows
   * no body fields, so any JSON object is returned as is (any other JSON value as `{}`).
   */
  async limits(tenantId: string, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.http.call({ endpoint: Endpoints.tenantLimits, params: { tenant_id: tenantId }, schema: TenantLimitsSchema }, options);
  }
}
