// Every write names the hotel group it belongs to.
export class TenantScopedDto {
  tenantId!: string;
}
