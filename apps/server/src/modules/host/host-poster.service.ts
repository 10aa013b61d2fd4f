import { joinPageUrl } from '@vez/contract';
import QRCode from 'qrcode';

/** The venue's QR code as SVG, pointing at its join page on this server's public origin. */
export async function renderJoinQrSvg(publicBaseUrl: string, venueId: string): Promise<string> {
  return QRCode.toString(joinPageUrl(publicBaseUrl, venueId), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
