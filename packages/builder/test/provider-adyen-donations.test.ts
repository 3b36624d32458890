// Adyen Checkout's DonationsApi makes a donation, a charge on the shopper's card: `donations(request, options)` in the
// PHP, Java, .NET, Python, Go and Ruby libraries (checked against each library's DonationsApi/DonationsService source).
// `donationCampaigns` only reads, and an argument-less `donations()` is an ORM relation or accessor, never the SDK call.
// Code written for this test.
import { describe, expect, it } from 'vitest';
import { scanDotnet } from '../src/inspect/patterns/dotnet.js';
import { scanGo } from '../src/inspect/patterns/go.js';
import { scanJvm } from '../src/inspect/patterns/jvm.js';
import { scanPhp } from '../src/inspect/patterns/php.js';
import { scanPython } from '../src/inspect/patterns/python.js';
import { scanRuby } from '../src/inspect/patterns/ruby.js';
import type { ScanResult } from '../src/inspect/types.js';

type Row = [call: string, location: string, passes: boolean, key: string | undefined];
const rows = (result: ScanResult): Row[] =>
  result.findings.paymentCalls.map((c) => [c.call, c.location, c.passesIdempotencyKey, c.keyExpression]);

describe('Adyen donations', () => {
  it('PHP: DonationsApi::donations with the key in $requestOptions; campaigns and an Eloquent relation are not calls', () => {
    const text = [
      '<?php',
      'use Adyen\\Model\\Checkout\\DonationPaymentRequest;',
      'use Adyen\\Service\\Checkout\\DonationsApi;',
      'class Donate {',
      '    public function place(array $request, string $orderId): array {',
      '        $service = new DonationsApi($this->client);',
      '        $campaigns = $service->donationCampaigns($campaignRequest);',
      '        $requestOptions[\'idempotencyKey\'] = "donation-" . $orderId;',
      '        $response = $service->donations(new DonationPaymentRequest($request), $requestOptions);',
      '        $total = $this->user->donations()->sum(\'amount\');',
      '        return $response->toArray();',
      '    }',
      '}',
    ].join('\n');
    expect(rows(scanPhp('Gateway/Donate.php', text))).toEqual([
      ['->donations', 'Gateway/Donate.php:9', true, '"donation-" . $orderId'],
    ]);
  });

  it('Java: DonationsApi.donations with RequestOptions, and a record accessor that is not a call', () => {
    const text = [
      'import com.adyen.service.checkout.DonationsApi;',
      'import com.adyen.model.RequestOptions;',
      'public class Donations {',
      '  public DonationPaymentResponse donate(DonationPaymentRequest request, Campaign campaign) throws Exception {',
      '    DonationsApi donationsApi = new DonationsApi(client);',
      '    int count = campaign.donations().size();',
      '    return donationsApi.donations(request, new RequestOptions().idempotencyKey(request.getReference()));',
      '  }',
      '}',
    ].join('\n');
    expect(rows(scanJvm('src/main/java/Donations.java', text))).toEqual([
      ['donationsApi.donations', 'src/main/java/Donations.java:7', true, 'request.getReference()'],
    ]);
  });

  it('.NET: DonationsService.DonationsAsync with and without a key; DonationCampaignsAsync is not a call', () => {
    const text = [
      'using Adyen.Checkout.Services;',
      'public class Donate {',
      '  public async Task Run(DonationPaymentRequest request, string orderId) {',
      '    await _donationsService.DonationCampaignsAsync(campaigns);',
      '    await _donationsService.DonationsAsync(request);',
      '    await _donationsService.DonationsAsync(request, new RequestOptions().AddIdempotencyKey($"donation-{orderId}"));',
      '  }',
      '}',
    ].join('\n');
    expect(rows(scanDotnet('Donate.cs', text))).toEqual([
      ['.DonationsAsync', 'Donate.cs:5', false, undefined],
      ['.DonationsAsync', 'Donate.cs:6', true, '$"donation-{orderId}"'],
    ]);
  });

  it('Python, Go and Ruby: donations_api.donations / DonationsApi.Donations', () => {
    const py = 'import Adyen\nadyen = Adyen.Adyen()\nresult = adyen.checkout.donations_api.donations(request, idempotency_key=order.id)';
    expect(rows(scanPython('donate.py', py))).toEqual([['.donations_api.donations', 'donate.py:3', true, 'order.id']]);
    const go = [
      'import "github.com/adyen/adyen-go-api-library/v15/src/checkout"',
      'func donate(ctx context.Context, req checkout.DonationPaymentRequest) {',
      '  service := client.Checkout()',
      '  service.DonationsApi.Donations(ctx, service.DonationsApi.DonationsInput().DonationPaymentRequest(req))',
      '}',
    ].join('\n');
    expect(rows(scanGo('donate.go', go)).map((r) => r.slice(0, 3))).toEqual([['.DonationsApi.Donations', 'donate.go:4', false]]);
    const rb = 'adyen = Adyen::Client.new\nadyen.checkout.donations_api.donations(request, headers: { "Idempotency-Key" => donation.id })';
    expect(rows(scanRuby('app/donate.rb', rb)).map((r) => r.slice(0, 3))).toEqual([['.donations_api.donations', 'app/donate.rb:2', true]]);
  });
});
