import { OmitType, PartialType } from '@nestjs/mapped-types';
import { TenantScopedDto } from '../../common/tenant-scoped.dto';

export class CreateBookingDto extends TenantScopedDto {
  roomId!: string;
  checkIn!: string;
  checkOut!: string;
  guestEmail!: string;
}

// The tenant of a booking never changes.
export class UpdateBookingDto extends PartialType(OmitType(CreateBookingDto, ['tenantId'] as const)) {}

export class CancelBookingDto {
  reason!: string;
  refundPolicy!: string;
  notifyGuest!: boolean;
}
