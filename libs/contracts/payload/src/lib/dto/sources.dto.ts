import { IsArray, IsInt, IsNotEmpty, IsString, IsUrl, Matches, Min } from 'class-validator';
import { UTC_TIMESTAMP_PATTERN } from '../payload.constants';
import { PayloadArticle, PayloadCluster, PayloadImage } from '../types/payload.types';
import { Nullable } from './validators/optional-key';

const HTTP_URL = { require_protocol: true, protocols: ['http', 'https'], require_tld: false };

/** Element of `articles`. */
export class ArticleDto implements PayloadArticle {
  @IsString() @IsNotEmpty() id!: string;
  @IsString() title!: string;
  @IsUrl(HTTP_URL) url!: string;
  @IsString() source!: string;
  @Nullable() @Matches(UTC_TIMESTAMP_PATTERN) published_at!: string | null;
  @IsString() lang!: string;
}

/** Element of `clusters`. */
export class ClusterDto implements PayloadCluster {
  @IsString() @IsNotEmpty() id!: string;
  @IsString() description!: string;
  @IsArray() @IsString({ each: true }) keywords!: string[];
  @IsInt() @Min(1) version!: number;
}

/** `image` (§2.3). */
export class ImageDto implements PayloadImage {
  @IsUrl(HTTP_URL) url!: string;
  @IsString() attribution!: string;
}
